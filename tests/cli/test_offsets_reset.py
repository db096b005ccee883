"""`groupctl group offsets reset` on both backends: the local DIR (`--local`) and `groupctl serve` over a
copy of it (`-b`, the Kafka backend through confluent-kafka's AdminClient).

One DIR per module: topic `orders` whose partition 0 holds 10 records produced through serve with
timestamps T0, T0+1 s ... (so ListOffsets by time has records to find), and whose partitions 1 and 2
hold no records, their logs starting at their log ends 200 and 300; a simple group `billing`, a group
`mirror` to copy from, and two groups with active members (KIP-848 `live`, classic `live-classic`).
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from confluent_kafka import ConsumerGroupTopicPartitions, Producer
from confluent_kafka import TopicPartition as LibrdkafkaPartition
from confluent_kafka.admin import AdminClient

from groupctl.backends.local import LocalBackend
from groupctl.coordinator.offsets import CommitPartition
from groupctl.server.server import ServerOptions, ServerThread
from tests.server.waits import WAIT_S

from .test_group import _classic_group, _consumer_group

#: The first record's timestamp on orders-0 (2023-11-14T22:13:20Z); record i is i seconds later.
T0 = 1_700_000_000_000
RECORDS = 10


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("reset") / "local"
    with LocalBackend(directory, create=True) as b:
        b.coordinator.create_topic("orders", 3)
        b.coordinator.create_topic("payments", 2)
        b.end_offsets_by_topic.update(orders=[0, 200, 300], payments=[80, 80])
        b.coordinator.commit_offsets("billing", "", -1, [CommitPartition("orders", 0, 3),
                                                          CommitPartition("orders", 1, 200),
                                                          CommitPartition("orders", 2, 250)])
        b.coordinator.commit_offsets("mirror", "", -1, [CommitPartition("orders", 0, 7),
                                                         CommitPartition("orders", 2, 299)])
        _consumer_group(b, "live", "orders", ["pod-0", "pod-1"])
        _classic_group(b, "live-classic", "payments", 2, ["app-0"])
    server = ServerThread(ServerOptions(directory, port=0))
    server.start()
    try:
        producer = Producer({"bootstrap.servers": server.bootstrap, "log_level": 0, "linger.ms": 0})
        for i in range(RECORDS):
            producer.produce("orders", f"r{i}".encode(), partition=0, timestamp=T0 + i * 1000)
        assert producer.flush(WAIT_S) == 0
    finally:
        server.stop()
    return directory


@pytest.fixture(params=("local", "serve"))
def target(request: pytest.FixtureRequest, template: Path, tmp_path: Path) -> tuple[str, ...]:
    """The module's DIR copied, as the command line selects it: --local DIR, or -b to a serve over it."""
    directory = tmp_path / "dir"
    shutil.copytree(template, directory)
    if request.param == "local":
        return ("--local", str(directory))
    return request.getfixturevalue("serve")(directory, "serve").args


def _items(r) -> list[dict]:
    assert r.out, r.err
    doc = json.loads(r.out)
    assert (doc["apiVersion"], doc["kind"]) == ("groupctl/v1", "OffsetReset")
    return doc["items"]


def _new(r) -> dict[tuple[str, int], int | None]:
    return {(i["topic"], i["partition"]): i["newOffset"] for i in _items(r)}


def _committed(cli, target, group: str) -> dict[tuple[str, int], int]:
    r = cli("group", "describe", group, *target, "-o", "json")
    assert r.code == 0, r.err
    return {(o["topic"], o["partition"]): o["offset"] for o in json.loads(r.out)["items"][0]["offsets"]}


def reset(cli, target, *args: str):
    return cli("group", "offsets", "reset", *args, *target, "-o", "json")


# -- every mode ------------------------------------------------------------------------------------------


def test_dry_run_plans_earliest_latest_and_current_and_changes_nothing(cli, target):
    before = _committed(cli, target, "billing")
    for mode, expected in (("--to-earliest", [0, 200, 300]), ("--to-latest", [RECORDS, 200, 300]),
                           ("--to-current", [3, 200, 250])):
        r = reset(cli, target, "billing", mode, "--topic", "orders", "--dry-run")
        assert r.code == 0, r.err
        items = _items(r)
        assert [i["newOffset"] for i in items] == expected, mode
        assert [(i["logStart"], i["logEnd"]) for i in items] == [(0, RECORDS), (200, 200), (300, 300)]
        assert [i["outcome"] for i in items] == ["would-reset"] * 3 and all(i["dryRun"] for i in items)
        assert "dry run: no offsets were reset" in r.err
    assert _committed(cli, target, "billing") == before


def test_to_offset_is_clamped_into_the_log_and_the_row_says_so(cli, target):
    r = reset(cli, target, "billing", "--to-offset", "99", "--topic", "orders:0,1", "--yes")
    assert r.code == 0, r.err
    items = _items(r)
    assert [(i["newOffset"], i["outcome"]) for i in items] == [(RECORDS, "reset"), (200, "reset")]
    assert items[0]["note"] == f"clamped down to the log end {RECORDS} (asked 99)"
    assert items[1]["note"] == "clamped up to the log start 200 (asked 99)"
    assert (items[0]["lagBefore"], items[0]["lagAfter"]) == (RECORDS - 3, 0)
    assert _committed(cli, target, "billing") == {("orders", 0): RECORDS, ("orders", 1): 200, ("orders", 2): 250}


def test_clamping_is_shown_in_the_table(cli, target):
    r = cli("group", "offsets", "reset", "billing", "--to-offset", "99", "--topic", "orders:0", "--dry-run", *target)
    assert r.code == 0, r.err
    head, row = r.out.splitlines()
    assert head.split()[:9] == ["GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "NEW-OFFSET", "LOG-START", "LOG-END",
                                "LAG-BEFORE", "LAG-AFTER"]
    assert row.split()[:10] == ["billing", "orders", "0", "3", str(RECORDS), "0", str(RECORDS), str(RECORDS - 3), "0",
                                "would-reset"]
    assert row.endswith(f"clamped down to the log end {RECORDS} (asked 99)")


def test_shift_by_moves_the_committed_offset_and_clamps(cli, target):
    r = reset(cli, target, "billing", "--shift-by", "-5", "--all-topics", "--yes")
    assert r.code == 0, r.err
    assert _new(r) == {("orders", 0): 0, ("orders", 1): 200, ("orders", 2): 300}
    assert [i["note"] for i in _items(r)] == ["clamped up to the log start 0 (asked -2)",
                                              "clamped up to the log start 200 (asked 195)",
                                              "clamped up to the log start 300 (asked 245)"]
    assert _committed(cli, target, "billing") == {("orders", 0): 0, ("orders", 1): 200, ("orders", 2): 300}


def test_to_datetime_finds_the_first_record_at_or_after_the_time(cli, target):
    # T0 + 4.5 s: record 5 (T0 + 5 s) is the first at or after it; the empty partitions answer their log end.
    r = reset(cli, target, "billing", "--to-datetime", "2023-11-14T22:13:24.500Z", "--topic", "orders", "--yes")
    assert r.code == 0, r.err
    assert _new(r) == {("orders", 0): 5, ("orders", 1): 200, ("orders", 2): 300}
    assert _committed(cli, target, "billing")[("orders", 0)] == 5
    # The same instant in another zone, and a time after the last record (the log end, as Kafka answers).
    r = reset(cli, target, "billing", "--to-datetime", "2023-11-15T00:13:24.5+02:00", "--topic", "orders:0",
              "--dry-run")
    assert _new(r) == {("orders", 0): 5}
    r = reset(cli, target, "billing", "--to-datetime", "2024-01-01T00:00:00Z", "--topic", "orders:0", "--dry-run")
    assert _new(r) == {("orders", 0): RECORDS}


def test_by_duration_goes_back_from_now(cli, target):
    r = reset(cli, target, "billing", "--by-duration", "P36500D", "--topic", "orders:0", "--dry-run")
    assert r.code == 0, r.err
    assert _new(r) == {("orders", 0): 0}  # a century back: every record is at or after it
    r = reset(cli, target, "billing", "--by-duration", "PT1S", "--topic", "orders:0", "--yes")
    assert r.code == 0, r.err
    assert _new(r) == {("orders", 0): RECORDS}  # every record is older than a second ago: the log end
    assert _committed(cli, target, "billing")[("orders", 0)] == RECORDS


def test_to_group_copies_the_other_groups_offsets(cli, target):
    r = reset(cli, target, "billing", "--to-group", "mirror", "--all-topics", "--yes")
    assert r.code == 0, r.err
    assert _new(r) == {("orders", 0): 7, ("orders", 2): 300}  # 299 is before orders-2's log start
    assert _committed(cli, target, "billing") == {("orders", 0): 7, ("orders", 1): 200, ("orders", 2): 300}


def test_a_partition_without_an_offset_to_copy_is_a_partial_failure(cli, target):
    r = reset(cli, target, "billing", "--to-group", "mirror", "--topic", "orders", "--yes")
    assert r.code == 3, r.err
    items = _items(r)
    assert [(i["partition"], i["outcome"]) for i in items] == [(0, "reset"), (1, "NO_SOURCE_OFFSET"), (2, "reset")]
    assert items[1]["failed"] and "no committed offset" in items[1]["note"]
    assert "1 of 3 partitions was not reset" in r.err
    assert _committed(cli, target, "billing") == {("orders", 0): 7, ("orders", 1): 200, ("orders", 2): 300}


def test_an_unknown_group_gets_the_offsets_created(cli, target):
    r = reset(cli, target, "fresh", "--to-earliest", "--topic", "orders:0", "--yes")
    assert r.code == 0, r.err
    assert _items(r)[0]["currentOffset"] is None
    assert _committed(cli, target, "fresh") == {("orders", 0): 0}


# -- refusals ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("group, members", [("live", ["member-pod-0", "member-pod-1"]), ("live-classic", ["app-0"])])
def test_a_group_with_active_members_is_refused_naming_them(cli, target, group, members):
    before = _committed(cli, target, group)
    r = reset(cli, target, group, "--to-earliest", "--all-topics", "--yes")
    assert r.code == 1
    assert f"group '{group}' has active members (Stable)" in r.err and "stop its consumers first" in r.err
    assert all(m in r.err for m in members), r.err
    assert _committed(cli, target, group) == before
    r = cli("group", "offsets", "reset", group, "--to-earliest", "--all-topics", "--dry-run", *target)
    assert r.code == 1 and r.out == ""  # no bare table header for a plan without rows


def test_one_refused_group_among_others_is_a_partial_failure(cli, target):
    r = reset(cli, target, "billing", "live", "--to-latest", "--topic", "orders:0", "--yes")
    assert r.code == 3
    assert [(i["groupId"], i["outcome"]) for i in _items(r)] == [("billing", "reset")]
    assert "1 of 2 groups refused" in r.err and "'live' has active members" in r.err
    assert _committed(cli, target, "billing")[("orders", 0)] == RECORDS


def test_all_groups_resets_every_group_without_members_and_refuses_the_rest(cli, target):
    """kafka-consumer-groups.sh --reset-offsets --all-groups: every consumer group, the active ones refused."""
    r = reset(cli, target, "--all-groups", "--to-earliest", "--topic", "orders:0", "--yes")
    assert r.code == 3, r.err
    assert sorted((i["groupId"], i["outcome"]) for i in _items(r)) == [("billing", "reset"), ("mirror", "reset")]
    assert "'live' has active members" in r.err and "'live-classic' has active members" in r.err
    assert _committed(cli, target, "billing")[("orders", 0)] == 0
    assert _committed(cli, target, "mirror")[("orders", 0)] == 0


def test_all_groups_leaves_out_the_to_group_and_takes_no_names_or_file(cli, target, tmp_path):
    r = reset(cli, target, "--all-groups", "--to-group", "mirror", "--topic", "orders:0", "--dry-run")
    assert [i["groupId"] for i in _items(r)] == ["billing"]
    r = reset(cli, target, "billing", "--all-groups", "--to-earliest", "--all-topics", "--dry-run")
    assert r.code == 2 and "GROUP names (or --group) or --all-groups, not both" in r.err
    plan = tmp_path / "plan.csv"
    plan.write_text("orders,0,1\n")
    r = reset(cli, target, "--all-groups", "--from-file", str(plan), "--dry-run")
    assert r.code == 2 and "--from-file names its own groups" in r.err
    r = reset(cli, target, "--to-earliest", "--all-topics", "--dry-run")
    assert r.code == 2 and "or --all-groups" in r.err


def test_an_unknown_topic_or_partition_changes_nothing(cli, target):
    r = reset(cli, target, "billing", "--to-earliest", "--topic", "nope", "--yes")
    assert r.code == 1 and "topic 'nope' does not exist" in r.err
    r = reset(cli, target, "billing", "--to-earliest", "--topic", "orders:3", "--yes")
    assert r.code == 1 and "has 3 partitions (0-2)" in r.err and "not 3" in r.err
    assert _committed(cli, target, "billing") == {("orders", 0): 3, ("orders", 1): 200, ("orders", 2): 250}


# -- Kafka's CSV ---------------------------------------------------------------------------------------------


def test_export_then_from_file_round_trip(cli, target, tmp_path):
    r = cli("group", "offsets", "reset", "billing", "--to-offset", "4", "--topic", "orders:0,2", "--dry-run",
            "--export", *target)
    assert r.code == 0, r.err
    assert r.out == "orders,0,4\norders,2,300\n"  # kafka-consumer-groups.sh --export: no header, one group
    plan = tmp_path / "plan.csv"
    plan.write_text(r.out)
    r = reset(cli, target, "billing", "--from-file", str(plan), "--yes")
    assert r.code == 0, r.err
    assert _committed(cli, target, "billing") == {("orders", 0): 4, ("orders", 1): 200, ("orders", 2): 300}


def test_export_of_several_groups_names_the_group(cli, target):
    r = cli("group", "offsets", "reset", "billing", "mirror", "--to-latest", "--topic", "orders:0", "--dry-run",
            "--export", *target)
    assert r.code == 0, r.err
    assert list(csv.reader(io.StringIO(r.out))) == [["billing", "orders", "0", str(RECORDS)],
                                                    ["mirror", "orders", "0", str(RECORDS)]]


def test_a_csv_in_kafkas_format_is_accepted(cli, target, tmp_path):
    one = tmp_path / "one.csv"
    one.write_text("orders,0,6\norders,2,301\n")
    r = reset(cli, target, "billing", "--from-file", str(one), "--yes")
    assert r.code == 0, r.err
    assert _new(r) == {("orders", 0): 6, ("orders", 2): 300}
    several = tmp_path / "several.csv"
    several.write_text("billing,orders,0,2\nmirror,orders,0,1\n")
    r = reset(cli, target, "billing", "mirror", "--from-file", str(several), "--yes")
    assert r.code == 0, r.err
    assert [(i["groupId"], i["newOffset"]) for i in _items(r)] == [("billing", 2), ("mirror", 1)]
    assert _committed(cli, target, "mirror") == {("orders", 0): 1, ("orders", 2): 299}


def test_a_bad_plan_file_is_a_usage_error(cli, target, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("orders,zero,6\n")
    r = reset(cli, target, "billing", "--from-file", str(bad), "--yes")
    assert r.code == 2 and "line 1: partition 'zero' is not a whole number" in r.err
    r = reset(cli, target, "billing", "--from-file", str(tmp_path / "missing.csv"), "--yes")
    assert r.code == 2 and "does not exist" in r.err
    unknown = tmp_path / "unknown.csv"
    unknown.write_text("orders,0,6\norders,5,1\n")
    r = reset(cli, target, "billing", "--from-file", str(unknown), "--yes")
    assert r.code == 1 and "topic 'orders' has 3 partitions (0-2)" in r.err and "not 5" in r.err
    assert _committed(cli, target, "billing")[("orders", 0)] == 3


# -- the command line ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("args, said", [
    (("billing", "--topic", "orders"), "give exactly one of --to-earliest"),
    (("billing", "--to-earliest", "--to-latest", "--topic", "orders"), "(given: --to-earliest, --to-latest)"),
    (("billing", "--to-earliest"), "name the partitions"),
    (("billing", "--to-earliest", "--topic", "orders", "--all-topics"), "name the partitions"),
    (("billing", "--to-datetime", "yesterday", "--topic", "orders"), "YYYY-MM-DDTHH:mm:SS.sss"),
    (("billing", "--by-duration", "30m", "--topic", "orders"), "is not an ISO-8601 duration"),
    (("billing", "--to-offset", "-1", "--topic", "orders"), "is negative"),
    (("billing", "--to-earliest", "--topic", "orders:x"), "partitions are whole numbers"),
    (("billing", "--to-group", "billing", "--all-topics"), "is one of the groups being reset"),
    (("billing", "--to-earliest", "--topic", "orders", "--export", "-o", "json"), "--export writes Kafka's CSV"),
])
def test_usage_errors(cli, tmp_path, args, said):
    r = cli("group", "offsets", "reset", *args, "--local", str(tmp_path), "--dry-run")
    assert r.code == 2, r.err
    assert said in r.err and r.out == ""


def test_without_a_terminal_yes_or_dry_run_is_needed(cli_input, template):
    r = cli_input("group", "offsets", "reset", "billing", "--to-earliest", "--all-topics", "--local", str(template))
    assert r.code == 2 and "pass --yes" in r.err


def test_on_a_terminal_the_plan_is_confirmed_first(cli_input, cli, template, tmp_path):
    directory = tmp_path / "dir"
    shutil.copytree(template, directory)
    args = ("group", "offsets", "reset", "billing", "--to-latest", "--topic", "orders:0", "--local", str(directory))
    r = cli_input(*args, input="n\n", tty=True)
    assert r.code == 1 and "not confirmed" in r.err
    assert "Offsets to reset on" in r.err and "[y/N]" in r.err
    assert _committed(cli, ("--local", str(directory)), "billing")[("orders", 0)] == 3
    r = cli_input(*args, input="y\n", tty=True)
    assert r.code == 0, r.err
    assert _committed(cli, ("--local", str(directory)), "billing")[("orders", 0)] == RECORDS


# -- confluent-kafka's AdminClient agrees ----------------------------------------------------------------------


def test_the_admin_client_reads_the_reset_offsets_and_its_own_reset_agrees(cli, serve, template, tmp_path):
    directory = tmp_path / "dir"
    shutil.copytree(template, directory)
    served = serve(directory, "serve")
    r = reset(cli, served.args, "billing", "--to-offset", "6", "--topic", "orders", "--yes")
    assert r.code == 0, r.err
    admin = AdminClient({"bootstrap.servers": served.location, "log_level": 0})
    futures = admin.list_consumer_group_offsets([ConsumerGroupTopicPartitions("billing")], request_timeout=WAIT_S)
    got = futures["billing"].result(WAIT_S)
    assert {(tp.topic, tp.partition): tp.offset for tp in got.topic_partitions} == {
        ("orders", 0): 6, ("orders", 1): 200, ("orders", 2): 300}
    # The admin client's own alter_consumer_group_offsets (the request groupctl sends) reads back the same.
    request = ConsumerGroupTopicPartitions("billing", [LibrdkafkaPartition("orders", 0, 2)])
    admin.alter_consumer_group_offsets([request], request_timeout=WAIT_S)["billing"].result(WAIT_S)
    assert _committed(cli, served.args, "billing")[("orders", 0)] == 2


def test_every_output_format(checks, template):
    checks.every_format(("group", "offsets", "reset", "billing", "--to-latest", "--all-topics", "--dry-run", "--local",
                         str(template)), "OffsetReset", ["GROUP", "NEW-OFFSET", "LAG-AFTER", "NOTE"], [])


# -- a broker that misbehaves while confluent-kafka asks it for Metadata -------------------------------


def _misbehaving_metadata(broker, fault: str):
    """Metadata (only) answered with a wrong correlation id, cut off mid-answer, or the connection closed;
    the group itself describes as Empty, so the reset gets as far as asking for the partitions."""
    from groupctl.protocol.messages import framing

    normal = broker.default_handlers()[3]

    def metadata(request, state):
        answer = framing.encode_response(3, request.api_version, request.correlation_id + (7 if fault == "corr" else 0),
                                         normal(request, state))
        if fault == "mid":
            state.extra["close_after_reply"] = True
            return answer[: len(answer) // 2]
        return None if fault == "close" else answer

    broker.topics = {"orders": {0: broker.node_id}}
    broker.on(3, metadata)
    broker.on(69, lambda r, s: {"groups": [{"errorCode": 0, "groupId": g, "groupState": "Empty", "groupEpoch": 3,
                                            "assignmentEpoch": 3, "assignorName": "uniform", "members": []}
                                           for g in r.body.group_ids]})


@pytest.mark.parametrize("fault", ["corr", "mid", "close"])
def test_a_broker_failing_metadata_gives_the_clear_line_the_other_commands_give(cli, fake_cluster, fault):
    """Which of librdkafka's reports comes first (the transport failure, every broker down) varies from run
    to run, so the words after "failed:" may differ; the line's form and the exit code do not."""
    (broker,) = fake_cluster()
    _misbehaving_metadata(broker, fault)
    where = ("-b", broker.address, "--timeout", "2s")
    reset = cli("group", "offsets", "reset", "billing", "--to-earliest", "--topic", "orders", "--dry-run", *where)
    other = cli("regex", "validate", "orders.*", "--from-cluster", *where)
    for r in (reset, other):
        assert r.code == 1, r.err
        assert "internal error" not in r.err and "KafkaException" not in r.err
        assert r.err.startswith(f"groupctl: error: Metadata on {broker.address} "), r.err
        assert " failed: " in r.err or " timed out after " in r.err
        assert r.out == ""
