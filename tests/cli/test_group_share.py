"""Share groups (KIP-932) on a cluster: `group describe` and `describe --all` against a fake broker that answers
with what a real Kafka 4.1.0 broker answered (../shared/kafka-4.1-wire, `tests/recorded_broker.py`), compared
with what Kafka 4.1.0's kafka-share-groups.sh printed on the same state (s2-share-groups.tool-output.txt).
"""

from __future__ import annotations

import json
import re

import pytest

from tests.fake_broker import DEFAULT_VERSIONS
from tests.recorded_broker import WIRE, RecordedGroups

pytestmark = pytest.mark.skipif(not WIRE.is_dir(), reason="the wire transcripts (../shared/kafka-4.1-wire) are absent")

#: s1's ListGroups (every type) and s3's answers for its four groups: classic g-classic and g-empty, consumer
#: g-848, share s-share with its live member, as s2's steps 3-9 described it.
GROUPS = ("g-848", "s-share", "g-classic", "g-empty")


@pytest.fixture
def broker(fake_cluster):
    (b,) = fake_cluster()
    recorded = RecordedGroups().add("s1-list").add("s3-consumer-describe", range(1, 10))
    recorded.add("s2-share-groups", range(3, 10)).only(*GROUPS).install(b)
    return b


def tool_output(step_command: str) -> list[list[str]]:
    """The table kafka-share-groups.sh printed for one command of s2, as rows of cells."""
    text = (WIRE / "s2-share-groups.tool-output.txt").read_text()
    block = text.split(f"$ {step_command}\n", 1)[1].split("[exit ", 1)[0]
    return [line.split() for line in block.splitlines() if line.strip()]


def table(out: str) -> list[list[str]]:
    return [re.split(r"\s{2,}", line.strip()) for line in out.splitlines() if line.strip()]


KAFKA = "kafka-share-groups.sh --bootstrap-server 127.0.0.1:39094 --describe --group s-share"


def test_a_share_group_describes_as_kafka_share_groups_sh_does(cli, broker):
    r = cli("group", "describe", "s-share", "-b", broker.address)
    assert r.code == 0, r.err
    rows = table(r.out)
    assert rows[0] == ["GROUP", "TOPIC", "PARTITION", "START-OFFSET", "LAG"]
    kafka = tool_output(KAFKA)
    assert kafka[0] == rows[0][:4]
    # Kafka 4.1's DescribeShareGroupOffsets (v0) carries no lag: `-`, where a 4.2 broker (v1) gives it.
    assert [row[:4] for row in rows[1:]] == kafka[1:] and all(row[4] == "-" for row in rows[1:])


def test_share_members_and_state_views_match_kafka(cli, broker):
    r = cli("group", "describe", "s-share", "--members", "-b", broker.address)
    assert r.code == 0, r.err
    assert table(r.out) == tool_output(f"{KAFKA} --members")
    r = cli("group", "describe", "s-share", "--members", "--verbose", "-b", broker.address)
    rows, kafka = table(r.out), tool_output(f"{KAFKA} --members --verbose")
    assert [row[:7] for row in rows] == kafka and rows[0][7:] == ["TARGET-ASSIGNMENT", "SUBSCRIPTION"]
    assert rows[1][7:] == ["-", "t-share"]  # ShareGroupDescribe carries no target
    r = cli("group", "describe", "s-share", "--state", "--verbose", "-b", broker.address)
    rows, kafka = table(r.out), tool_output(f"{KAFKA} --state --verbose")
    # Kafka pads "host:port  (id)" with two spaces inside its column; the value is the same.
    assert rows[0] == ["GROUP", "COORDINATOR (ID)", "STATE", "GROUP-EPOCH", "ASSIGNMENT-EPOCH", "#MEMBERS"]
    assert rows[1][0] == kafka[1][0] and rows[1][1] == f"{broker.address} (0)"
    assert rows[1][2:] == kafka[1][3:]


def test_describe_all_over_classic_consumer_and_share_groups_succeeds(cli, broker):
    for view in ("--state", "--members"):
        r = cli("group", "describe", "--all", view, "-b", broker.address)
        assert r.code == 0, r.err
        assert "does not exist" not in r.err and "internal error" not in r.err
        main, share = r.out.split("\n\n")
        assert {row[0] for row in table(main)[1:]} >= {"g-848", "g-classic"}
        assert [row[0] for row in table(share)[1:]] == ["s-share"]
    r = cli("group", "describe", "--all", "--state", "-o", "json", "-b", broker.address)
    items = {i["groupId"]: i for i in json.loads(r.out)["items"]}
    assert sorted(items) == sorted(GROUPS)
    share = items["s-share"]
    assert (share["type"], share["state"], share["groupEpoch"], share["assignmentEpoch"]) == ("share", "Stable", 2, 2)
    assert share["members"][0]["protocol"] == "share" and share["members"][0]["clientId"] == "console-share-consumer"
    assert share["shareOffsets"] == [{"topic": "t-share", "partition": 0, "startOffset": 0, "leaderEpoch": 0,
                                      "lag": None, "stateEpoch": None, "batches": []}]


def test_describe_all_narrowed_to_share_groups(cli, broker):
    r = cli("group", "describe", "--all", "--type", "share", "--state", "-b", broker.address)
    assert r.code == 0, r.err
    assert [row[0] for row in table(r.out)] == ["GROUP", "s-share"]
    r = cli("group", "list", "--type", "share", "-b", broker.address)
    assert table(r.out) == [["GROUP", "TYPE", "STATE"], ["s-share", "share", "Stable"]]


def test_a_group_of_a_type_groupctl_cannot_describe_is_one_row_not_a_failure(cli, fake_cluster):
    (b,) = fake_cluster()
    recorded = RecordedGroups().add("s1-list").add("s3-consumer-describe", range(1, 10))
    streams = type(recorded.listed["s-share"])(group_id="orders-streams", protocol_type="streams",
                                               group_state="Stable", group_type="streams")
    recorded.only("g-848").listed["orders-streams"] = streams
    recorded.install(b)
    r = cli("group", "describe", "--all", "--state", "-b", b.address)
    assert r.code == 0, r.err
    main, other = r.out.split("\n\n")
    rows = table(other)
    assert rows[0] == ["GROUP", "TYPE", "STATE", "NOT-DESCRIBED"]
    assert rows[1][:3] == ["orders-streams", "streams", "Stable"] and "streams group" in rows[1][3]
    assert [row[0] for row in table(main)] == ["GROUP", "g-848"] and "does not exist" not in r.err


def test_an_unknown_group_still_does_not_exist(cli, broker):
    r = cli("group", "describe", "no-such-group", "-b", broker.address)
    assert r.code == 1 and "group 'no-such-group' does not exist" in r.err


# -- reset, delete-offsets and delete: s2's states, live (a member) and after the member left ------------------


def recorded_share(b, *, live: bool) -> RecordedGroups:
    """s-share as s2 recorded it: with its console consumer (steps 3-13), or Empty after it stopped (14-24)."""
    recorded = RecordedGroups().add("s1-list").add("s3-consumer-describe", range(9, 10))
    if live:
        recorded.add("s2-share-groups", range(3, 14))
    else:  # the answers to the deletes (steps 19-21), then the describes of the Empty group before them
        recorded.add("s2-share-groups", range(19, 22)).add("s2-share-groups", range(14, 19))
    recorded.only("s-share")
    recorded.log_ends[("t-share", 0)] = 10  # s2's setup wrote 10 records on t-share's one partition
    return recorded.install(b)


def test_a_share_group_with_members_is_not_reset_in_kafkas_words(cli, fake_cluster):
    (b,) = fake_cluster()
    recorded_share(b, live=True)
    r = cli("group", "offsets", "reset", "s-share", "--to-earliest", "--all-topics", "--yes", "-b", b.address)
    assert r.code != 0 and "Share group 's-share' is not empty." in r.err
    assert "VhuYUGYkTJqcbal8P6LKYg" in r.err and b.requests_for(91) == []


def test_an_empty_share_group_resets_its_start_offsets_with_alter_share_group_offsets(cli, fake_cluster):
    (b,) = fake_cluster()
    recorded_share(b, live=False)
    r = cli("group", "offsets", "reset", "s-share", "--to-latest", "--all-topics", "--dry-run", "-b", b.address)
    assert r.code == 0, r.err
    assert b.requests_for(91) == []
    r = cli("group", "offsets", "reset", "s-share", "--to-latest", "--topic", "t-share", "--yes", "-o", "json",
            "-b", b.address)
    assert r.code == 0, r.err
    (item,) = json.loads(r.out)["items"]
    assert (item["topic"], item["partition"], item["currentOffset"], item["newOffset"]) == ("t-share", 0, 0, 10)
    (sent,) = b.requests_for(91)
    assert sent.body.group_id == "s-share"
    assert [(t.topic_name, [(p.partition_index, p.start_offset) for p in t.partitions]) for t in sent.body.topics] \
        == [("t-share", [(0, 10)])]


@pytest.mark.parametrize("mode", [["--to-offset", "3"], ["--shift-by", "-1"], ["--to-current"],
                                  ["--by-duration", "PT1H"]])
def test_a_share_group_resets_only_the_three_ways_kafka_offers(cli, fake_cluster, mode):
    (b,) = fake_cluster()
    recorded_share(b, live=False)
    r = cli("group", "offsets", "reset", "s-share", *mode, "--all-topics", "--yes", "-b", b.address)
    assert r.code != 0 and "--to-earliest, --to-latest or --to-datetime" in r.err and mode[0] in r.err
    assert b.requests_for(91) == []


def test_share_offsets_are_deleted_per_topic_and_only_from_an_empty_group(cli, fake_cluster):
    (live,) = fake_cluster()
    recorded_share(live, live=True)
    r = cli("group", "offsets", "delete", "s-share", "--topic", "t-share", "--yes", "-b", live.address)
    assert r.code == 1 and "The group is not empty." in r.err and live.requests_for(92) == []
    r = cli("group", "offsets", "delete", "s-share", "--topic", "t-share:0", "--yes", "-b", live.address)
    assert r.code == 2 and "deleted per topic" in r.err
    (empty,) = fake_cluster()
    recorded_share(empty, live=False)
    r = cli("group", "offsets", "delete", "s-share", "--topic", "t-share", "--yes", "-o", "json", "-b", empty.address)
    assert r.code == 0, r.err
    (item,) = json.loads(r.out)["items"]
    assert (item["topic"], item["partition"], item["outcome"], item["deleted"]) == ("t-share", None, "deleted", True)
    (sent,) = empty.requests_for(92)
    assert [t.topic_name for t in sent.body.topics] == ["t-share"]


def test_a_share_group_is_deleted_only_when_empty(cli, fake_cluster):
    (live,) = fake_cluster()
    recorded_share(live, live=True)
    r = cli("group", "delete", "s-share", "--yes", "-b", live.address)
    assert r.code != 0 and "Share group 's-share' is not EMPTY." in r.out + r.err
    (empty,) = fake_cluster()
    recorded_share(empty, live=False)
    r = cli("group", "delete", "s-share", "--yes", "-b", empty.address)
    assert r.code == 0, r.err
    assert [r.body.groups_names for r in empty.requests_for(42)] == [["s-share"]]


@pytest.mark.parametrize("fmt", ["table", "wide", "csv", "yaml"])
def test_every_output_format_carries_the_share_group(cli, broker, fmt):
    r = cli("group", "describe", "g-848", "s-share", "-o", fmt, "-b", broker.address)
    assert r.code == 0, r.err
    if fmt == "yaml":
        assert "kind: GroupDescription" in r.out and "startOffset: 0" in r.out
    elif fmt == "csv":
        consumer, share = r.out.split("\n\n")
        assert consumer.splitlines()[0].startswith("group,topic,partition,leaderEpoch,currentOffset,")
        assert share.splitlines()[0] == "group,topic,partition,leaderEpoch,startOffset,lag"
        assert share.splitlines()[1] == "s-share,t-share,0,0,0,"
    else:
        assert "START-OFFSET" in r.out and "CURRENT-OFFSET" in r.out


def test_a_broker_with_only_the_early_access_share_describe_gets_a_row_saying_so(cli, fake_cluster):
    """Kafka 4.0's share groups were early access with ShareGroupDescribe v0, a layout 4.1 dropped."""
    (b,) = fake_cluster(api_versions={**DEFAULT_VERSIONS, 77: (0, 0)})
    RecordedGroups().add("s1-list").add("s3-consumer-describe", range(9, 10)).only("s-share").install(b)
    r = cli("group", "describe", "s-share", "--state", "-b", b.address)
    assert r.code == 0, r.err
    rows = table(r.out)
    assert rows[1][:3] == ["s-share", "share", "Stable"]
    assert "ShareGroupDescribe (API 77) v0-0; groupctl speaks v1-1" in rows[1][3] and b.requests_for(77) == []
