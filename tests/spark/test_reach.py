"""TCP checks before a JVM starts: bounded, and only where a host:port is certain."""

from __future__ import annotations

import pytest

from groupctl.errors import GroupctlError
from groupctl.spark.reach import check_namenode, why_unreachable


def test_why_unreachable(closed_port: int, silent_port: int):
    assert why_unreachable("127.0.0.1", closed_port, 2) == "connection refused"
    assert why_unreachable("127.0.0.1", silent_port, 2) is None  # taking the connection is enough
    assert why_unreachable("no-such-host.invalid", 8020, 2) == "the host name no-such-host.invalid does not resolve"


def test_namenode_of_an_hdfs_uri(closed_port: int):
    uri = f"hdfs://127.0.0.1:{closed_port}/kafka-logs"
    with pytest.raises(GroupctlError) as caught:
        check_namenode(uri, "PATH")
    assert str(caught.value) == (f"cannot reach the HDFS namenode of PATH '{uri}': connection refused — "
                                 "is HDFS up? check the URI")
    # no port: maybe an HA nameservice only the cluster's configuration resolves; other schemes: not a namenode
    for other in ("hdfs://no-such-host.invalid/x", f"s3a://127.0.0.1:{closed_port}/x", "file:///x", "hdfs://h:x/y"):
        check_namenode(other, "PATH")
