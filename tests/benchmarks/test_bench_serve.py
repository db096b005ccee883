"""benchmarks/bench_serve.py: --kafka-bootstrap against a broker that is still starting (FindCoordinator and the
coordinator answering coordinator errors a few times first: a fake), and against a live broker (`groupctl serve`
on 127.0.0.1); the members settle for several quiet rounds before anything is measured; Kafka's recorded figure
comes from kafka.json, labelled."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from groupctl.protocol.data.consumer_groups import Assignment, ConsumerGroupHeartbeatResponseData, TopicPartitions
from groupctl.protocol.data.topics import CreatableTopicResult, CreateTopicsResponseData
from groupctl.server.server import ServerThread
from tests.fake_broker import coordinator_reply

COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, GROUP_AUTHORIZATION_FAILED, GROUP_ID_NOT_FOUND = 14, 15, 30, 69


@pytest.fixture
def serve_bench(bench: Callable[[str], ModuleType]) -> ModuleType:
    return bench("bench_serve")


def starting_broker(fake_cluster: Any, find_errors: list[int], describe_errors: list[int]) -> Any:
    """A fake whose FindCoordinator answers each error of `find_errors` in turn before naming itself, and whose
    ConsumerGroupDescribe answers each of `describe_errors` before GROUP_ID_NOT_FOUND (a group not made yet); it
    creates the topics it is asked to."""
    (broker,) = fake_cluster()
    finds, describes = list(find_errors), list(describe_errors)
    own_find = broker.default_handlers()[10]

    def find(request: Any, state: Any) -> Any:
        if not finds:
            return own_find(request, state)
        return coordinator_reply(request, -1, "", -1, finds.pop(0))

    def describe(request: Any, state: Any) -> Any:
        code = describes.pop(0) if describes else GROUP_ID_NOT_FOUND
        return {"groups": [{"errorCode": code, "errorMessage": None, "groupId": g, "groupState": "", "groupEpoch": 0,
                            "assignmentEpoch": 0, "assignorName": "", "members": [],
                            "authorizedOperations": -(2**31)} for g in request.body.group_ids]}

    def create(request: Any, state: Any) -> Any:
        answers = []
        for topic in request.body.topics:
            broker.topics[topic.name] = dict.fromkeys(range(topic.num_partitions), broker.node_id)
            answers.append(CreatableTopicResult(name=topic.name, error_code=0, error_message=None,
                                                num_partitions=topic.num_partitions, replication_factor=1, configs=[]))
        return CreateTopicsResponseData(topics=answers)

    broker.on(10, find)
    broker.on(69, describe)
    broker.on(19, create)
    return broker


def test_a_starting_broker_is_waited_for_until_its_coordinator_takes_the_group(
    serve_bench: ModuleType, fake_cluster: Any
) -> None:
    broker = starting_broker(fake_cluster, [COORDINATOR_NOT_AVAILABLE] * 3, [COORDINATOR_LOAD_IN_PROGRESS] * 2)
    assert serve_bench.prepare_kafka(broker.address, "bench-g", "bench-t", 4, timeout_s=30) == ("127.0.0.1",
                                                                                                 broker.port)
    assert broker.topics["bench-t"] == dict.fromkeys(range(4), 0)
    assert len(broker.requests_for(10)) >= 4  # three refusals, then the answer (more when the describe rediscovers)
    assert len(broker.requests_for(69)) == 3


def test_a_coordinator_error_that_is_not_retriable_ends_the_benchmark_with_its_cause(
    serve_bench: ModuleType, fake_cluster: Any
) -> None:
    broker = starting_broker(fake_cluster, [COORDINATOR_NOT_AVAILABLE, GROUP_AUTHORIZATION_FAILED], [])
    with pytest.raises(SystemExit) as failed:
        serve_bench.prepare_kafka(broker.address, "bench-g", "bench-t", 2, timeout_s=30)
    assert f"--kafka-bootstrap {broker.address}" in str(failed.value)
    assert re.search(r"group.?authorization", str(failed.value), re.I)
    assert len(broker.requests_for(10)) == 2


def test_a_broker_that_is_not_there_ends_the_benchmark_with_its_cause(serve_bench: ModuleType,
                                                                      closed_port: int) -> None:
    with pytest.raises(SystemExit) as failed:
        serve_bench.prepare_kafka(f"127.0.0.1:{closed_port}", "bench-g", "bench-t", 2, timeout_s=5)
    assert f"127.0.0.1:{closed_port}" in str(failed.value)


#: The one topic's id in the members built here.
T_ID = uuid.UUID(int=7)


def members(serve_bench: ModuleType, epochs: list[int], owned: list[list[int]]) -> list[Any]:
    made = []
    for i, (epoch, parts) in enumerate(zip(epochs, owned, strict=True)):
        m = serve_bench.Member(i, "g", "t")
        m.epoch = epoch
        m.owned = [TopicPartitions(topic_id=T_ID, partitions=parts)] if parts else []
        made.append(m)
    return made


def test_the_group_is_settled_only_after_several_quiet_complete_rounds(serve_bench: ModuleType) -> None:
    settling = serve_bench.Settling(partitions=3, needed=3)
    done = members(serve_bench, [5, 5, 5], [[0], [1], [2]])
    assert not settling.observe(True, done)  # something moved
    assert not settling.observe(False, members(serve_bench, [5, 5, 5], [[0], [1], []]))  # a partition unowned
    assert not settling.observe(False, members(serve_bench, [5, 4, 5], [[0], [1], [2]]))  # an epoch behind
    assert not settling.observe(False, members(serve_bench, [5, 5, 5], [[0, 1], [1], [2]]))  # owned twice
    assert not settling.observe(False, done)
    assert not settling.observe(False, done)
    assert not settling.observe(True, done)  # the epoch moved again: start over
    assert not settling.observe(False, done)
    assert not settling.observe(False, done)
    assert settling.observe(False, done)
    assert settling.rounds == 10
    assert settling.last == "epochs 5..5, 3 of 3 partitions owned, nothing moved"


def test_a_member_waits_out_a_coordinator_error_and_stops_at_any_other(serve_bench: ModuleType) -> None:
    member = serve_bench.Member(0, "g", "t")
    sent = member.request()
    assert member.handle(sent, ConsumerGroupHeartbeatResponseData(error_code=COORDINATOR_LOAD_IN_PROGRESS,
                                                                  error_message=None))
    assert member.coordinator_error == COORDINATOR_LOAD_IN_PROGRESS and member.epoch == 0
    assert member.request().member_epoch == 0  # it joins again
    settling = serve_bench.Settling(partitions=1, needed=1)
    assert not settling.observe(False, [member])
    assert "coordinator errors [14]" in settling.last
    joined = ConsumerGroupHeartbeatResponseData(error_code=0, error_message=None, member_epoch=3, assignment=Assignment(
        topic_partitions=[TopicPartitions(topic_id=T_ID, partitions=[0])]))
    assert member.handle(sent, joined)
    assert member.coordinator_error == 0 and member.epoch == 3
    with pytest.raises(SystemExit, match="error 25"):
        member.handle(member.request(), ConsumerGroupHeartbeatResponseData(error_code=25,
                                                                           error_message="UNKNOWN_MEMBER_ID"))


def test_kafka_bootstrap_runs_the_same_load_on_a_live_broker(
    run_bench: Callable[..., Any], served: ServerThread, measured_file: Path
) -> None:
    done = run_bench("bench_serve.py", "--members", "12", "--connections", "3", "--rounds", "3",
                     "--kafka-bootstrap", served.bootstrap, "--measured", measured_file)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    found = re.search(rf"the broker at {re.escape(served.bootstrap)}: group '(bench-\w+)' Stable at epoch "
                      r"(\d+) after [\d.]+ s; 36 steady heartbeats", out)
    assert found, out
    group, epoch = found.group(1), int(found.group(2))
    description = served.call(lambda b: b.coordinator.describe(group))
    assert description.state == "Stable" and description.group_epoch == epoch
    assert len(description.members) == 12
    assert ("peer, Kafka 4.0.0 broker on this load (recorded live 2026-12-01, 2 cores, 24 GiB, load average 1.2-2.0, "
            "median of 5): 7,469 heartbeats/s; groupctl (this run):") in out
    assert f"peer, the broker at {served.bootstrap} on this load, measured live in this run: " in out


def test_without_kafka_json_it_says_so_and_measures_groupctl(run_bench: Callable[..., Any], tmp_path: Path) -> None:
    done = run_bench("bench_serve.py", "--members", "6", "--connections", "2", "--rounds", "2",
                     "--measured", tmp_path / "absent.json")
    assert done.returncode == 0, done.stderr
    assert "a Kafka broker on this load: no recorded Kafka figure (" in done.stdout
    assert "over loopback: 12 steady heartbeats" in done.stdout
    assert "peer, Kafka" not in done.stdout
