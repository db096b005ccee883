"""The committed man pages and completion scripts must match what the app generates now."""

from __future__ import annotations

from pathlib import Path

from groupctl.cli.docs import generated_files, stale_files

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
