"""`groupctl demo`: a guided tour of the tool on the local coordinator.

Every step runs a real groupctl command in this process and prints it first, so the tour doubles
as a list of commands to copy into a shell against the same DIR.
"""

from __future__ import annotations

import shlex
import shutil
import tempfile
from pathlib import Path

import typer

from groupctl.cli.options import path_parser
from groupctl.errors import GroupctlError, UsageError

# (explanation, command); {dir} is the local DIR, {log} its __consumer_offsets partition.
STEPS: list[tuple[str, list[str]]] = [
    ("Two topics on the local coordinator (its state lives in DIR; --messages sets log end offsets).", [
        "local topics create orders --partitions 6 --messages 1000 --local {dir}",
        "local topics create payments --partitions 4 --messages 500 --local {dir}",
    ]),
    ("A classic group of three static members (group.instance.id, KIP-345): JoinGroup/SyncGroup, eager "
     "rebalances, the range assignor run by the leader.", [
        "local member join orders-0 --group orders-app --protocol classic --instance-id orders-0 --topics orders "
        "--local {dir}",
        "local member join orders-1 --group orders-app --protocol classic --instance-id orders-1 --topics orders "
        "--local {dir}",
        "local member join orders-2 --group orders-app --protocol classic --instance-id orders-2 --topics orders "
        "--local {dir}",
        "local member commit orders-0 --lag 10 --local {dir}",
    ]),
    ("A KIP-848 group of three static members: the broker assigns (uniform) and every member moves "
     "through group, assignment and member epochs.", [
        "local member join pay-0 --group payments-app --protocol consumer --instance-id pay-0 --topics payments "
        "--local {dir}",
        "local member join pay-1 --group payments-app --protocol consumer --instance-id pay-1 --topics payments "
        "--local {dir}",
        "local member join pay-2 --group payments-app --protocol consumer --instance-id pay-2 --topics payments "
        "--local {dir}",
    ]),
    ("The groups, and their epochs.", [
        "group list -o wide --local {dir}",
        "group describe orders-app payments-app --state --local {dir}",
        "group describe payments-app --members --verbose --local {dir}",
        "group describe orders-app --offsets --local {dir}",
    ]),
    ("A rolling bounce of static members, each back within the session timeout: no rebalance. The "
     "classic generation and the group epoch stay where they were.", [
        "local member bounce orders-2 --down 10s --local {dir}",
        "local member bounce orders-1 --down 10s --local {dir}",
        "local member bounce pay-2 --down 10s --local {dir}",
        "local member bounce pay-1 --down 10s --local {dir}",
        "group describe orders-app payments-app --state --local {dir}",
    ]),
    ("Scale-down: remove the static members of the pods that are gone, in one batch (kafka-consumer-groups.sh "
     "cannot). A name that is not in the group gets its own error row; the exit code is 3 when any member "
     "failed.", [
        "local member crash pay-2 --local {dir}",
        "group remove-members payments-app --instance-id pay-2,pay-9 --reason scale-down --yes --local {dir}",
        "local tick 5s --local {dir}",
        "group describe payments-app --members --local {dir}",
    ]),
    ("A dynamic group config, validated with the broker's bounds before anything changes.", [
        "group config set payments-app consumer.session.timeout.ms=50000 --local {dir}",
        "group config get payments-app --local {dir}",
    ]),
    ("The coordinator's own log is a __consumer_offsets partition in Kafka's format: the dump tools read it "
     "as they read a broker's (it holds every group, as a one-partition __consumer_offsets would).", [
        "dump groups {log} --state --partitions 1",
        "dump audit {log} --fail-on none",
    ]),
]


def _run(argv: list[str]) -> int:
    """Run one groupctl command in this process, as the shell would, and return its exit code."""
    from groupctl.cli.app import app as root

    command = typer.main.get_command(root)
    try:
        result = command.main(args=argv, prog_name="groupctl", standalone_mode=False)
    except GroupctlError as exc:
        typer.echo(f"groupctl: error: {exc}", err=True)
        return exc.exit_code
    return result if isinstance(result, int) else 0


def demo(
    local: Path = typer.Option(
        None, "--local", metavar="DIR", parser=path_parser("directory for the tour"),
        help="Run the tour in DIR (it must not hold a coordinator yet) and keep it; by default a temporary "
        "directory that is removed at the end.",
    ),
) -> None:
    """A guided tour on the in-process coordinator.

    Topics, a classic group with static members, a KIP-848 group, a rolling bounce without a
    rebalance, a scale-down with remove-members, epochs at each step, a config change, and dump groups
    on the coordinator's own log: each step a real groupctl command, printed first.
    """
    keep = local is not None
    directory = local if local is not None else Path(tempfile.mkdtemp(prefix="groupctl-demo-")) / "lab"
    if directory.exists() and any(directory.iterdir()):
        raise UsageError(f"{directory} is not empty; the demo needs a fresh directory (or none: it makes one)")
    try:
        for number, (explanation, commands) in enumerate(STEPS, 1):
            typer.echo(f"\n## {number}. {explanation}\n")
            for template in commands:
                text = template.format(dir=shlex.quote(str(directory)),
                                       log=shlex.quote(str(directory / "__consumer_offsets-0")))
                typer.echo(f"$ groupctl {text}")
                code = _run(shlex.split(text))
                if code not in (0, 3):
                    raise GroupctlError(f"the demo stopped: `groupctl {text}` exited {code}")
                typer.echo("")
        where = f"The lab is in {directory}: try the commands above against it." if keep else \
            "Run `groupctl demo --local DIR` to keep the lab and carry on from a shell."
        typer.echo(f"\nDone. {where}")
    finally:
        if not keep:
            shutil.rmtree(directory.parent, ignore_errors=True)
