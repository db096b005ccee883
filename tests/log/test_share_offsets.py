"""Share-partition state from `__share_group_state` records (written with groupctl's segment writer, laid
out per Kafka's schemas), folded as Kafka's share coordinator replays snapshots and updates, and shown in
`dump groups` beside the share group's `__consumer_offsets` records."""

from __future__ import annotations

from pathlib import Path

import pytest

from groupctl.dumps import describe_dump_groups, replay_dumps
from groupctl.log.decode import open_inputs
from groupctl.log.share_offsets import Batch, ShareStateReplay, combine_batches
from groupctl.log.writer import SegmentWriter, SimpleRecord
from groupctl.model import ShareOffset, ShareStateBatch
from groupctl.protocol import share_state
from tests.log.test_replay import TOPIC_B64, TOPIC_ID
from tests.log.test_share_groups import join

AVAILABLE, ACKED, ARCHIVED = 0, 2, 4


def test_overlaps_take_the_higher_delivery_count_then_state():
    old = [Batch(0, 9, AVAILABLE, 1)]
    assert combine_batches(old, [Batch(3, 5, ACKED, 1)], 0) == [
        Batch(0, 2, AVAILABLE, 1), Batch(3, 5, ACKED, 1), Batch(6, 9, AVAILABLE, 1)]
    # a lower delivery count loses where it overlaps, whatever its state
    assert combine_batches([Batch(0, 9, AVAILABLE, 3)], [Batch(3, 12, ARCHIVED, 2)], 0) == [
        Batch(0, 9, AVAILABLE, 3), Batch(10, 12, ARCHIVED, 2)]


def test_same_state_ranges_merge_and_the_start_offset_prunes():
    assert combine_batches([Batch(0, 4, ACKED, 1)], [Batch(5, 9, ACKED, 1), Batch(20, 21, ACKED, 1)], -1) == [
        Batch(0, 9, ACKED, 1), Batch(20, 21, ACKED, 1)]
    assert combine_batches([Batch(0, 4, ACKED, 1), Batch(5, 9, AVAILABLE, 2)], [], 7) == [Batch(7, 9, AVAILABLE, 2)]
    assert combine_batches([Batch(0, 4, ACKED, 1)], [], 5) == []


def key(partition: int = 0, group: str = "sg") -> dict:
    return {"groupId": group, "topicId": TOPIC_ID, "partition": partition}


def snapshot(start: int, batches: list[dict], *, state_epoch: int = 1, leader_epoch: int = 4) -> dict:
    return {"snapshotEpoch": 0, "stateEpoch": state_epoch, "leaderEpoch": leader_epoch, "startOffset": start,
            "createTimestamp": 1, "writeTimestamp": 2, "stateBatches": batches}


def update(start: int, batches: list[dict], *, leader_epoch: int = -1) -> dict:
    return {"snapshotEpoch": 0, "leaderEpoch": leader_epoch, "startOffset": start, "stateBatches": batches}


def batch(first: int, last: int, state: int, count: int) -> dict:
    return {"firstOffset": first, "lastOffset": last, "deliveryState": state, "deliveryCount": count}


def write(directory: Path, *records: tuple[int, dict, dict | None]) -> Path:
    w = SegmentWriter(directory)
    w.append([SimpleRecord(share_state.encode_key(t, k), None if v is None else share_state.encode_value(t, 0, v), 1)
              for t, k, v in records])
    w.close()
    return directory


def fold(directory: Path) -> ShareStateReplay:
    replay = ShareStateReplay()
    for dump in open_inputs([directory]):
        for _, recs in dump.batches:
            for rec in recs:
                replay.apply(rec)
    return replay


def test_an_update_is_a_delta_on_the_last_snapshot(tmp_path):
    d = write(tmp_path / "__share_group_state-1",
              (0, key(), snapshot(5, [batch(5, 9, AVAILABLE, 1)])),
              (1, key(), update(7, [batch(10, 12, AVAILABLE, 2), batch(8, 8, ACKED, 1)])))
    (state,) = fold(d).partitions.values()
    assert (state.start_offset, state.state_epoch, state.leader_epoch) == (7, 1, 4)
    assert state.batches == [Batch(7, 7, AVAILABLE, 1), Batch(8, 8, ACKED, 1), Batch(9, 9, AVAILABLE, 1),
                             Batch(10, 12, AVAILABLE, 2)]
    assert state.to_model("orders", 0) == ShareOffset("orders", 0, 7, leader_epoch=4, state_epoch=1, batches=[
        ShareStateBatch(7, 7, "Available", 1), ShareStateBatch(8, 8, "Acknowledged", 1),
        ShareStateBatch(9, 9, "Available", 1), ShareStateBatch(10, 12, "Available", 2)])


def test_a_snapshot_replaces_and_its_tombstone_deletes(tmp_path):
    d = write(tmp_path / "__share_group_state-1",
              (0, key(), snapshot(5, [batch(5, 9, AVAILABLE, 1)])),
              (0, key(), snapshot(20, [], leader_epoch=6)),
              (0, key(1), snapshot(0, [])),
              (0, key(1), None))
    replay = fold(d)
    assert list(replay.partitions) == [("sg", TOPIC_ID, 0)]
    state = replay.partitions[("sg", TOPIC_ID, 0)]
    assert (state.start_offset, state.leader_epoch, state.batches) == (20, 6, [])


def test_an_update_without_a_snapshot_is_the_state_with_no_state_epoch(tmp_path):
    d = write(tmp_path / "__share_group_state-1", (1, key(), update(3, [batch(3, 4, ARCHIVED, 5)], leader_epoch=2)))
    offset = fold(d).partitions[("sg", TOPIC_ID, 0)].to_model("t", 0)
    assert (offset.start_offset, offset.state_epoch, offset.leader_epoch) == (3, None, 2)
    assert offset.batches == [ShareStateBatch(3, 4, "Archived", 5)]
    unset = write(tmp_path / "__share_group_state-2", (0, key(), snapshot(-1, [], state_epoch=0, leader_epoch=-1)))
    assert fold(unset).partitions[("sg", TOPIC_ID, 0)].to_model("t", 0) == ShareOffset("t", 0, None, state_epoch=0)


def test_dump_groups_shows_each_share_partitions_state(tmp_path):
    offsets = tmp_path / "__consumer_offsets-18"
    w = SegmentWriter(offsets)
    w.append(join(group="sg"))  # the group's type-15 record lists orders-0 and orders-1 as initialised
    w.close()
    state = write(tmp_path / "__share_group_state-3", (0, key(), snapshot(5, [batch(5, 6, ACKED, 1)])),
                  (0, key(9, group="other"), snapshot(0, [])))
    found = describe_dump_groups(replay_dumps(open_inputs([offsets, state])))
    by_id = {d.group_id: d for d in found.descriptions}
    assert by_id["sg"].state == "Stable" and by_id["sg"].share_offsets == [
        ShareOffset("orders", 0, 5, leader_epoch=4, state_epoch=1, batches=[ShareStateBatch(5, 6, "Acknowledged", 1)]),
        ShareOffset("orders", 1, None)]
    # a group only __share_group_state names: its metadata is not in the dump; the topic is named by the
    # dump's other records (sg's type 15)
    other = by_id["other"]
    assert (other.type, other.state, other.members) == ("share", "Dead", [])
    assert other.share_offsets == [ShareOffset("orders", 9, 0, leader_epoch=4, state_epoch=1)]
    alone = describe_dump_groups(replay_dumps(open_inputs([state])), ["other"]).descriptions
    assert alone[0].share_offsets == [ShareOffset(TOPIC_B64, 9, 0, leader_epoch=4, state_epoch=1)]


@pytest.mark.parametrize("given", ["names", "no names"])
def test_a_group_of_another_type_gets_no_share_offsets(tmp_path, given):
    from tests.log.test_replay import commit

    offsets = tmp_path / "__consumer_offsets-0"
    w = SegmentWriter(offsets)
    w.append([commit(3, group="sg")])
    w.close()
    state = write(tmp_path / "__share_group_state-3", (0, key(), snapshot(5, [])))
    names = {TOPIC_B64: "orders"} if given == "names" else None
    (desc,) = describe_dump_groups(replay_dumps(open_inputs([offsets, state])), topic_names=names).descriptions
    assert desc.type == "classic" and desc.share_offsets == []
