"""The CLI contract: exit codes, errors on stderr without traces, the JSON envelope, --version."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
import typer

from groupctl import __version__
from groupctl.cli import app as app_module
from groupctl.cli.app import _debug_requested


def test_version(cli):
    r = cli("--version")
    assert r.code == 0
    first, loop, assignor = r.out.strip().split("\n")
    assert first == f"groupctl {__version__}"
    assert loop.startswith("record loop: ")
    assert assignor.startswith("uniform assignor: ")


def test_no_arguments_prints_help_and_exits_usage(cli):
    r = cli()
    assert r.code == 2
    assert "dump" in r.out
    assert "Usage" in r.out


def test_unknown_command_is_usage_error(cli):
    r = cli("frobnicate")
    assert r.code == 2
    assert "No such command 'frobnicate'" in r.err
    assert "Traceback" not in r.err
    assert r.out == ""


def test_bad_option_value_is_usage_error(cli):
    r = cli("dump", "locate", "g", "--output", "bogus")
    assert r.code == 2
    assert "--output" in r.err


def test_missing_argument_is_usage_error(cli):
    r = cli("dump", "locate")
    assert r.code == 2
    assert "Missing argument" in r.err


def test_global_output_applies_to_commands(cli):
    r = cli("-o", "json", "dump", "locate", "g")
    assert r.code == 0
    doc = json.loads(r.out)
    assert doc["apiVersion"] == "groupctl/v1"
    assert doc["kind"] == "GroupLocation"


def test_command_output_overrides_global(cli):
    r = cli("-o", "json", "dump", "locate", "g", "-o", "csv")
    assert r.code == 0
    assert r.out.splitlines()[0] == "group,partition,directory,hashCode"


def test_python_dash_m_matches_console_script():
    proc = subprocess.run(
        [sys.executable, "-m", "groupctl", "dump", "locate", "polygenelubricants", "-o", "csv"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[1].startswith("polygenelubricants,0,")


def test_closed_pipe_ends_quietly():
    code = (
        "import sys; sys.argv=['groupctl','dump','locate',*map(str,range(20000))];"
        "from groupctl.cli.app import main; main()"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None
    proc.stdout.readline()
    proc.stdout.close()
    _, err = proc.communicate(timeout=60)
    assert b"Traceback" not in err
    assert proc.returncode != 0 or err == b""


# -- --debug before the command; -v/--verbose after it -----------------------------------------------------

DEPRECATION = ("groupctl: note: --verbose/-v before the command is deprecated: use --debug for details and traces "
               "(after a command, -v/--verbose shows more columns)\n")


@pytest.mark.parametrize(("args", "wanted"), [
    (["--debug", "dump", "locate", "g"], True),
    (["-o", "json", "-v", "dump", "locate", "g"], True),
    (["--output", "-v", "dump"], False),  # -v is --output's value here, which parsing then refuses
    (["group", "describe", "g", "-v"], False),
    (["dump", "groups", "d", "--verbose"], False),
    (["dump", "decode", "--", "--debug"], False),
])
def test_only_the_roots_own_flags_ask_for_traces(args, wanted):
    assert _debug_requested(args) is wanted


def test_a_commands_verbose_does_not_turn_on_traces(cli, tmp_path):
    missing = str(tmp_path / "nope")
    r = cli("dump", "groups", missing, "-v")
    assert r.code == 2 and "Traceback" not in r.err
    assert r.err == f"groupctl: error: '{missing}' does not exist; give the dump first (segment files, partition " \
        "directories or kafka-dump-log text), then the group ids\n"
    traced = cli("--debug", "dump", "groups", missing)
    assert traced.code == 2 and "Traceback" in traced.err and traced.err.endswith(r.err)


@pytest.mark.parametrize("flag", ["-v", "--verbose"])
def test_verbose_before_the_command_still_means_debug_with_a_note(cli, tmp_path, flag):
    r = cli(flag, "dump", "locate", "g", "-o", "csv")
    assert r.code == 0 and r.out == cli("dump", "locate", "g", "-o", "csv").out
    assert r.err == DEPRECATION
    traced = cli(flag, "dump", "groups", str(tmp_path / "nope"))
    assert traced.err.startswith(DEPRECATION) and "Traceback" in traced.err
    assert cli("--debug", "dump", "locate", "g").err == ""


def test_short_v_after_the_command_is_its_more_columns_flag(cli, sample):
    short = cli("dump", "groups", str(sample), "payments-app", "--members", "-v")
    assert short.code == 0, short.err
    assert short.out == cli("dump", "groups", str(sample), "payments-app", "--members", "--verbose").out
    assert short.out != cli("dump", "groups", str(sample), "payments-app", "--members").out


@pytest.mark.parametrize("flag", ["-v", "--verbose"])
def test_verbose_where_a_command_has_no_more_columns_is_refused_naming_both_ways(cli, flag):
    r = cli("dump", "locate", "g", flag)
    assert r.code == 2 and r.out == "" and "Traceback" not in r.err
    assert r.err.splitlines()[-1] == (
        f"groupctl: error: `groupctl dump locate` has no {flag} (more columns); -o wide shows every column; for "
        "details and a trace on failure, put --debug before the command: groupctl --debug dump locate ...")
    r = cli("demo", flag)
    assert r.code == 2 and "-o wide" not in r.err and "groupctl --debug demo ..." in r.err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("stderr", "said"), [(_Terminal, "\ngroupctl: error: interrupted\n"),
                                               (io.StringIO, "groupctl: error: interrupted\n")])
def test_ctrl_c_is_said_on_a_line_of_its_own(monkeypatch, stderr, said):
    interrupted = typer.Typer()

    @interrupted.command()
    def work() -> None:
        raise KeyboardInterrupt

    build = app_module.typer.main.get_command
    monkeypatch.setattr(app_module.typer.main, "get_command", lambda _app: build(interrupted))
    err = stderr()
    monkeypatch.setattr("sys.stderr", err)
    with pytest.raises(SystemExit) as done:
        app_module.main([])
    assert done.value.code == 130
    assert err.getvalue() == said
