"""Counts with agreeing nouns, and the messages that use them."""

from __future__ import annotations

from groupctl.plurals import counted, plural


def test_one_is_singular_and_every_other_count_plural() -> None:
    assert [counted(n, "group") for n in (0, 1, 2)] == ["0 groups", "1 group", "2 groups"]
    assert counted(1, "batch", "batches") == "1 batch" and counted(3, "batch", "batches") == "3 batches"
    assert (plural(1, "was", "were"), plural(2, "was", "were")) == ("was", "were")


def test_a_cli_message_counts_right(cli, tmp_path) -> None:
    from groupctl.backends.local import LocalBackend
    from groupctl.coordinator.offsets import CommitPartition

    with LocalBackend(tmp_path / "local", create=True) as b:
        b.coordinator.create_topic("orders", 1)
        b.coordinator.commit_offsets("billing", "", -1, [CommitPartition("orders", 0, 3)])
    r = cli("group", "describe", "billing", "nope", "--local", str(tmp_path / "local"))
    assert r.code == 3
    assert r.err.endswith(f"groupctl: error: 1 of 2 groups does not exist on local {tmp_path / 'local'}\n")
