"""--master checked and its address tried before any JVM starts (no Spark needed here)."""

from __future__ import annotations

import socket
import threading

import pytest

from groupctl.errors import GroupctlError, UsageError
from groupctl.spark.master import Endpoint, check_environment, check_master, endpoints, probe_master
from tests.server.waits import OUTLASTS_S, promptly


def test_masters_spark_accepts():
    for master in ("local", "local[2]", "local[*]", "local[4, 2]", "local[*,3]", "local-cluster[2,1,1024]",
                   "spark://a:7077,b:7077", "spark://[::1]:7077", "yarn", "k8s://https://k8s.example:6443"):
        check_master(master)


def test_masters_spark_refuses():
    for master in ("spark://host", "spark://host:", "spark://h:0", "spark://h:70000", "spark://a:1,b", "foo://x"):
        with pytest.raises(UsageError, match="is not a Spark master URL"):
            check_master(master)


def test_endpoints_of_each_master_form():
    assert endpoints("spark://a:7077,b.example:7078") == [Endpoint("a", 7077), Endpoint("b.example", 7078)]
    assert endpoints("spark://[::1]:7077") == [Endpoint("::1", 7077)]
    assert str(Endpoint("::1", 7077)) == "[::1]:7077"
    assert endpoints("k8s://https://api.example:6443") == [Endpoint("api.example", 6443)]
    assert endpoints("k8s://api.example") == [Endpoint("api.example", 443)]  # Spark reads it as https
    assert endpoints("k8s://http://api.example") == [Endpoint("api.example", 80)]
    assert endpoints("local[*]") == endpoints("yarn") == []


def test_unreachable_master_is_named_with_the_fix(closed_port: int):
    master = f"spark://127.0.0.1:{closed_port}"
    with pytest.raises(GroupctlError) as caught:
        probe_master(master)
    assert str(caught.value) == (f"cannot reach Spark master {master}: connection refused — "
                                 "is the master running? check --master")
    with pytest.raises(GroupctlError, match=r"the host name no-such-host\.invalid does not resolve"):
        probe_master("spark://no-such-host.invalid:7077")
    with pytest.raises(GroupctlError, match=r"^cannot reach the Kubernetes API server of k8s://https://127"):
        probe_master(f"k8s://https://127.0.0.1:{closed_port}")


def test_one_live_master_of_several_is_enough(closed_port: int, silent_port: int):
    probe_master(f"spark://127.0.0.1:{closed_port},127.0.0.1:{silent_port}")
    with pytest.raises(GroupctlError) as caught:
        probe_master(f"spark://no-such-host.invalid:7077,127.0.0.1:{closed_port}")
    assert (f"no-such-host.invalid:7077: the host name no-such-host.invalid does not resolve; "
            f"127.0.0.1:{closed_port}: connection refused") in str(caught.value)


def test_a_resolver_that_hangs_is_bounded(monkeypatch: pytest.MonkeyPatch):
    release = threading.Event()

    def hanging(*args: object, **kwargs: object) -> list:
        release.wait(OUTLASTS_S)  # a resolver that does not answer (released when the test ends)
        raise socket.gaierror(socket.EAI_AGAIN, "temporary failure")

    monkeypatch.setattr(socket, "getaddrinfo", hanging)
    try:
        with promptly("the 0.3 s bound, not the resolver"), \
                pytest.raises(GroupctlError, match=r"did not resolve within 0\.3 s"):
            probe_master("spark://slow.example:7077", 0.3)
    finally:
        release.set()


def test_yarn_without_its_configuration(monkeypatch: pytest.MonkeyPatch, tmp_path):
    monkeypatch.delenv("HADOOP_CONF_DIR", raising=False)
    monkeypatch.delenv("YARN_CONF_DIR", raising=False)
    with pytest.raises(GroupctlError, match="set HADOOP_CONF_DIR or YARN_CONF_DIR"):
        check_environment("yarn")
    check_environment("local[2]")
    monkeypatch.setenv("YARN_CONF_DIR", str(tmp_path))
    check_environment("yarn")


@pytest.mark.parametrize(("value", "said"), [("500ms", "give at least 1s"), ("0", "out of range"),
                                             ("5 minutes", "unknown unit")])
def test_start_timeout_is_a_duration_of_a_second_or_more(cli, tmp_path, value: str, said: str) -> None:
    r = cli("spark", "audit", str(tmp_path), "--master", "local[1]", "--start-timeout", value)
    assert r.code == 2 and said in r.err, r.err
