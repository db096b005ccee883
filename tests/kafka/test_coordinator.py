"""FindCoordinator at every version (bytes against kafka-python), and the retry rules: rediscovery on
NOT_COORDINATOR / COORDINATOR_NOT_AVAILABLE, patience on COORDINATOR_LOAD_IN_PROGRESS, all bounded."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from groupctl.errors import KafkaError
from groupctl.kafka.cluster import Cluster
from groupctl.kafka.coordinator import find_coordinator_request, find_coordinators, parse_find_coordinator
from groupctl.kafka.errors import ConnectionFailed, CoordinatorUnavailable
from groupctl.kafka.groups import describe_classic_groups
from groupctl.protocol.data.group_admin import FindCoordinatorRequestData, FindCoordinatorResponseData
from groupctl.protocol.messages import framing
from tests.fake_broker import coordinator_reply
from tests.server.waits import OUTLASTS_S, WAIT_S, promptly

HOST = "127.0.0.1"


def described(group_id: str, error: int = 0, state: str = "Stable") -> dict[str, Any]:
    return {
        "errorCode": error,
        "groupId": group_id,
        "groupState": state,
        "protocolType": "consumer",
        "protocolData": "range",
        "members": [],
    }


def describe_handler(errors: list[int] | None = None) -> Any:
    """DescribeGroups answering each group with the next error of `errors`, then success."""
    queue = list(errors or [])

    def handle(request: Any, state: Any) -> dict[str, Any]:
        code = queue.pop(0) if queue else 0
        return {"groups": [described(g, code) for g in request.body.groups]}

    return handle


@pytest.mark.parametrize("version", range(7))
def test_find_coordinator_bytes_equal_kafka_python(fake_cluster: Any, config_for: Any, kp: Any, version: int) -> None:
    (broker,) = fake_cluster(api_versions={18: (0, 3), 10: (0, version)})
    with Cluster(config_for(broker)) as cluster:
        answers = find_coordinators(cluster, ["orders", "payments"], cluster.deadline(WAIT_S))
    assert {k: (a.node_id, a.port, a.error_code) for k, a in answers.items()} == {
        "orders": (0, broker.port, 0),
        "payments": (0, broker.port, 0),
    }
    requests = broker.requests_for(10)
    if version >= 4:
        (request,) = requests
        expected = [
            kp.frame(
                "FindCoordinatorRequest",
                version,
                request.correlation_id,
                "groupctl",
                key_type=0,
                coordinator_keys=["orders", "payments"],
            )
        ]
    else:
        assert len(requests) == 2
        expected = [
            kp.frame("FindCoordinatorRequest", version, r.correlation_id, "groupctl", key=key, key_type=0)
            for r, key in zip(requests, ["orders", "payments"], strict=True)
        ]
    assert [framing.frame(raw) for raw in broker.raw_for(10)] == expected


@pytest.mark.parametrize("version", range(7))
def test_find_coordinator_response_encoded_by_kafka_python(kp: Any, version: int) -> None:
    cls = kp.cls["FindCoordinatorResponse"]
    if version >= 4:
        fields = {
            "coordinators": [
                cls.Coordinator(key="g", node_id=3, host="b3", port=9094, error_code=0, error_message=None),
                cls.Coordinator(key="h", node_id=-1, host="", port=-1, error_code=15, error_message="loading"),
            ]
        }
        keys = ["g", "h"]
    else:
        fields = {"error_code": 0, "error_message": None, "node_id": 3, "host": "b3", "port": 9094}
        keys = ["g"]
    wire = kp.frame("FindCoordinatorResponse", version, 5, **fields)
    body = framing.decode_response(wire[4:], 10, version).body
    answers = parse_find_coordinator(body, version, keys)
    assert (answers["g"].node_id, answers["g"].host, answers["g"].port, answers["g"].error_code) == (3, "b3", 9094, 0)
    if version >= 4:
        assert (answers["h"].error_code, answers["h"].error_message) == (15, "loading")


def test_find_coordinator_request_shapes() -> None:
    assert find_coordinator_request(0, ["g"]) == FindCoordinatorRequestData(key="g")
    assert find_coordinator_request(3, ["g"]) == FindCoordinatorRequestData(key="g", key_type=0)
    assert find_coordinator_request(4, ["g", "h"]) == FindCoordinatorRequestData(key_type=0,
                                                                                 coordinator_keys=["g", "h"])
    with pytest.raises(ValueError, match="one key"):
        find_coordinator_request(3, ["g", "h"])


def test_not_coordinator_then_rediscovery(fake_cluster: Any, config_for: Any) -> None:
    b0, b1 = fake_cluster(2)
    lookups: list[int] = []

    def find(request: Any, state: Any) -> FindCoordinatorResponseData:
        target = b0 if not lookups else b1
        lookups.append(target.node_id)
        return coordinator_reply(request, target.node_id, HOST, target.port)

    for b in (b0, b1):
        b.on(10, find)
    b0.on(15, describe_handler([16]))  # the group moved to b1
    b1.on(15, describe_handler())
    with Cluster(config_for(b0)) as cluster:
        result = describe_classic_groups(cluster, ["orders"], cluster.deadline(WAIT_S))
        assert cluster.coordinators["orders"].node_id == 1
    assert result["orders"].described.error_code == 0 and result["orders"].coordinator.node_id == 1
    assert lookups == [0, 1]


def test_coordinator_not_available_rediscovers(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster()
    broker.on(15, describe_handler([15]))
    with Cluster(config_for(broker)) as cluster:
        assert describe_classic_groups(cluster, ["g"], cluster.deadline(WAIT_S))["g"].described.error_code == 0
    assert len(broker.requests_for(10)) == 2 and len(broker.requests_for(15)) == 2


def test_load_in_progress_retries_on_the_same_coordinator(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster()
    broker.on(15, describe_handler([14, 14]))
    with Cluster(config_for(broker)) as cluster:
        result = describe_classic_groups(cluster, ["g"], cluster.deadline(WAIT_S))
    assert result["g"].described.group_state == "Stable"
    assert len(broker.requests_for(10)) == 1 and len(broker.requests_for(15)) == 3


def test_load_in_progress_is_bounded_by_the_deadline(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster()
    broker.on(15, lambda r, s: {"groups": [described(g, 14) for g in r.body.groups]})
    start = time.monotonic()
    with promptly("the 2 s deadline"), Cluster(config_for(broker), timeout=2) as cluster, \
            pytest.raises(CoordinatorUnavailable) as err:
        describe_classic_groups(cluster, ["orders"], cluster.deadline())
    assert time.monotonic() - start >= 1.9  # retried until the deadline, not given up before it
    message = str(err.value)
    assert message.startswith("DescribeGroups: no coordinator answered within 2.0 s for 1 group ")
    assert f"'orders': COORDINATOR_LOAD_IN_PROGRESS from {HOST}:{broker.port} (node 0)" in message
    # backoffs of 0.1, 0.2, 0.4 and 0.8 s fit in 2 s: 5 asks at most (a slow machine asks fewer), never a busy loop
    assert 2 <= len(broker.requests_for(15)) <= 5


def test_find_coordinator_not_available_is_retried(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster()
    calls: list[int] = []

    def find(request: Any, state: Any) -> FindCoordinatorResponseData:
        calls.append(1)
        code = 15 if len(calls) == 1 else 0
        return coordinator_reply(request, 0, HOST, broker.port, code)

    broker.on(10, find)
    broker.on(15, describe_handler())
    with Cluster(config_for(broker)) as cluster:
        assert describe_classic_groups(cluster, ["g"], cluster.deadline(WAIT_S))["g"].described.error_code == 0
    assert len(calls) == 2


def test_unreachable_coordinator_is_rediscovered(fake_cluster: Any, config_for: Any, closed_port: int) -> None:
    (broker,) = fake_cluster()
    calls: list[int] = []

    def find(request: Any, state: Any) -> FindCoordinatorResponseData:
        calls.append(1)
        node, port = (5, closed_port) if len(calls) == 1 else (0, broker.port)
        return coordinator_reply(request, node, HOST, port)

    broker.on(10, find)
    broker.on(15, describe_handler())
    with Cluster(config_for(broker)) as cluster:
        assert describe_classic_groups(cluster, ["g"], cluster.deadline(WAIT_S))["g"].coordinator.node_id == 0
    assert len(calls) == 2


def test_old_brokers_get_one_lookup_per_group(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster(api_versions={18: (0, 3), 10: (0, 2), 15: (0, 3)})
    broker.on(15, describe_handler())
    with Cluster(config_for(broker)) as cluster:
        result = describe_classic_groups(cluster, ["a", "b", "c"], cluster.deadline(WAIT_S))
    assert sorted(result) == ["a", "b", "c"]
    assert [r.body.key for r in broker.requests_for(10)] == ["a", "b", "c"]
    (describe,) = broker.requests_for(15)
    assert describe.body.groups == ["a", "b", "c"] and describe.api_version == 3


def test_fatal_lookup_errors_are_raised(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster()
    broker.on(10, lambda r, s: coordinator_reply(r, -1, "", -1, 30))
    with Cluster(config_for(broker)) as cluster, pytest.raises(KafkaError) as err:
        describe_classic_groups(cluster, ["secret"], cluster.deadline(WAIT_S))
    assert err.value.name == "GROUP_AUTHORIZATION_FAILED"
    assert "FindCoordinator for group 'secret' failed with GROUP_AUTHORIZATION_FAILED" in str(err.value)


def test_an_unreachable_cluster_fails_at_once(config_for: Any, closed_port: int) -> None:
    with promptly("a refused bootstrap is an answer, not the deadline waited out"), \
            Cluster(config_for(f"{HOST}:{closed_port}"), timeout=OUTLASTS_S) as cluster, \
            pytest.raises(ConnectionFailed) as err:
        describe_classic_groups(cluster, ["g"], cluster.deadline())
    assert "no bootstrap server answered" in str(err.value)


def _coordinator_at(node: int, port: int) -> Any:
    """FindCoordinator that always names node `node` at `port`."""

    def find(request: Any, state: Any) -> FindCoordinatorResponseData:
        return coordinator_reply(request, node, HOST, port)

    return find


def test_a_coordinator_that_keeps_refusing_fails_at_once_with_that_cause(
    fake_cluster: Any, config_for: Any, closed_port: int
) -> None:
    (broker,) = fake_cluster()
    broker.on(10, _coordinator_at(7, closed_port))
    with promptly("three refusals in a row, not the deadline waited out"), \
            Cluster(config_for(broker), timeout=OUTLASTS_S) as cluster, pytest.raises(ConnectionFailed) as err:
        describe_classic_groups(cluster, ["orders"], cluster.deadline())
    assert str(err.value).startswith(
        f"cannot reach {HOST}:{closed_port}: connection refused 3 times in a row by node 7, the coordinator of "
        "group 'orders' (DescribeGroups); the broker went away"
    )
    assert "timed out" not in str(err.value)
    assert len(broker.requests_for(10)) == 3


def test_a_coordinator_that_disappears_mid_command_fails_at_once(fake_cluster: Any, config_for: Any) -> None:
    b0, b1 = fake_cluster(2)
    b0.on(10, _coordinator_at(1, b1.port))

    def vanish(request: Any, state: Any) -> None:
        threading.Thread(target=b1.stop).start()  # the listener closes: every reconnect is refused
        return None  # and this connection closes without an answer

    b1.on(15, vanish)
    with promptly("refused reconnects, not the deadline waited out"), \
            Cluster(config_for(b0), timeout=OUTLASTS_S) as cluster, pytest.raises(ConnectionFailed) as err:
        describe_classic_groups(cluster, ["orders"], cluster.deadline())
    assert f"cannot reach {HOST}:{b1.port}: connection refused 3 times in a row by node 1" in str(err.value)
    assert len(b1.requests_for(15)) == 1


def test_a_coordinator_refusing_once_during_a_failover_is_looked_up_again(
    fake_cluster: Any, config_for: Any, closed_port: int
) -> None:
    (broker,) = fake_cluster()
    calls: list[int] = []
    down, up = _coordinator_at(7, closed_port), _coordinator_at(0, broker.port)
    broker.on(10, lambda r, s: (calls.append(1), (down if len(calls) <= 2 else up)(r, s))[1])
    broker.on(15, describe_handler())
    with Cluster(config_for(broker), timeout=30) as cluster:
        assert describe_classic_groups(cluster, ["g"], cluster.deadline())["g"].coordinator.node_id == 0
    assert len(calls) == 3


def test_a_slow_coordinator_gets_a_longer_setup_bound_when_retried(fake_cluster: Any, config_for: Any) -> None:
    b0, b1 = fake_cluster(2)
    b0.on(10, _coordinator_at(1, b1.port))

    def slow_api_versions(request: Any, state: Any) -> Any:
        time.sleep(0.5)  # longer than the first bound (300 ms): only a bound that grows lets an answer in
        return b1._api_versions(request, state)

    b1.on(18, slow_api_versions)
    b1.on(15, describe_handler())
    config = config_for(b0, socket_connection_setup_timeout_ms="300")
    with Cluster(config, timeout=WAIT_S) as cluster:
        assert describe_classic_groups(cluster, ["g"], cluster.deadline())["g"].coordinator.node_id == 1
    # timed out at 300 ms, answered within 600 ms (a loaded machine may need the 1.2 s of a third try)
    assert len(b1.requests_for(18)) >= 2
    assert len(b0.requests_for(10)) == len(b1.requests_for(18))  # looked up again after each timeout
