"""The CLI contract: exit codes, errors on stderr without traces, the JSON envelope, --version."""

from __future__ import annotations

import json
import subprocess
import sys

from groupctl import __version__


def test_version(cli):
    r = cli("--version")
    assert r.code == 0
    first, loop = r.out.strip().split("\n")
    assert first == f"groupctl {__version__}"
    assert loop.startswith("record loop: ")


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
