"""The committed man pages and completion scripts must match what the app generates now."""

from __future__ import annotations

import re
from pathlib import Path

from groupctl.cli.app import COMPLETE_VAR
from groupctl.cli.docs import generated_files, man_pages, readme_blocks, stale_files, write_files
from groupctl.errors import EXIT_STATUSES

ROOT = Path(__file__).resolve().parents[2]


def test_committed_docs_are_current():
    stale = stale_files(ROOT)
    assert not stale, f"regenerate with `python scripts/gen_docs.py`: {stale}"


def test_every_command_has_a_man_page():
    files = generated_files()
    assert "man/groupctl.1" in files
    assert "man/groupctl-dump-locate.1" in files
    assert {"completions/groupctl.bash", "completions/_groupctl", "completions/groupctl.fish"} <= set(files)


def test_stale_detection(tmp_path):
    for rel, text in generated_files().items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    assert stale_files(tmp_path) == []
    (tmp_path / "man" / "groupctl.1").write_text("old\n")
    (tmp_path / "man" / "groupctl-gone.1").write_text("removed command\n")
    assert stale_files(tmp_path) == ["man/groupctl.1", "man/groupctl-gone.1"]


def _section(page: str, title: str) -> str:
    """The text of one `.SH` section of a man page ('' when the page has none)."""
    match = re.search(rf"^\.SH {title}\n(.*?)(?=^\.SH |\Z)", page, re.S | re.M)
    return match.group(1) if match else ""


def test_every_page_has_exit_status_and_examples():
    for name, page in man_pages().items():
        statuses = re.findall(r"^\\fB(\d+)\\fR$", _section(page, "EXIT STATUS"), re.M)
        assert statuses[:4] == ["0", "1", "2", "3"] and statuses[-1] == "130", name
        assert ("4" in statuses) == ("\\-\\-fail\\-on" in _section(page, "OPTIONS") or name in (
            "groupctl.1", "groupctl-dump.1", "groupctl-spark.1", "groupctl-regex.1")), name
        assert _section(page, "EXAMPLES").count(".PP") >= 2, name


def test_exit_status_is_the_one_table():
    page = man_pages()["groupctl.1"]
    for code, meaning in EXIT_STATUSES:
        assert f"\\fB{code}\\fR\n{meaning.replace('`', '').replace('-', chr(92) + '-')}\n" in page


def test_environment_names_every_variable_the_code_reads():
    """Each GROUPCTL_* name in the package's source is on the root page; each page names what its
    options read."""
    source = "\n".join(p.read_text() for p in (ROOT / "groupctl").rglob("*.py"))
    read = set(re.findall(r"\bGROUPCTL_[A-Z_]+\b", source)) | {COMPLETE_VAR}
    pages = man_pages()
    root_env = _section(pages["groupctl.1"], "ENVIRONMENT").replace("\\_", "_")
    assert {v for v in read if f"\\fB{v}\\fR" not in root_env} == set()
    local = _section(pages["groupctl-local-tick.1"], "ENVIRONMENT")
    assert "GROUPCTL_LOCAL" in local and "GROUPCTL_BOOTSTRAP_SERVER" not in local and COMPLETE_VAR not in local
    cluster = _section(pages["groupctl-group-list.1"], "ENVIRONMENT")
    assert {"GROUPCTL_SASL_PASSWORD", "GROUPCTL_SSL_KEY_PASSWORD", "GROUPCTL_BOOTSTRAP_SERVER"} <= set(
        re.findall(r"GROUPCTL_[A-Z_]+", cluster))
    assert "JAVA_HOME" in _section(pages["groupctl-spark-audit.1"], "ENVIRONMENT")


def test_readme_exit_codes_are_generated():
    readme = (ROOT / "README.md").read_text()
    assert readme_blocks()["exit-codes"] in readme
    assert all(f"| {code} | {meaning} |" in readme for code, meaning in EXIT_STATUSES)


def test_a_hand_edited_readme_block_is_stale(tmp_path):
    for rel, text in generated_files().items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    readme = (ROOT / "README.md").read_text()
    (tmp_path / "README.md").write_text(readme.replace("| 2 | usage error |", "| 2 | bad usage |"))
    assert stale_files(tmp_path) == ["README.md"]
    write_files(tmp_path)
    assert (tmp_path / "README.md").read_text() == readme
