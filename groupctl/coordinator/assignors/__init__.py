"""KIP-848 server-side assignors, `uniform` and `range`, as pure functions of the members and the topics.

They follow Kafka 4.x's `group-coordinator/.../coordinator/group/assignor/` classes (UniformAssignor with its
homogeneous and heterogeneous builders, RangeAssignor), rack awareness left out. Kafka walks its HashMaps in
hash order in several places (which member gets an extra slot, which duplicate claim wins, the member index
that breaks ties), so its output for one input is not reproducible outside the JVM. Here every such choice
is made on a sorted order instead, so the same input gives the same output whatever the insertion order of
the mappings:

* members are taken in Java `String.compareTo` order of member id (range: static members first, by
  instance id, exactly as Kafka's RangeAssignor sorts them);
* topics in `uuid.UUID` order, which is Kafka's `Uuid.compareTo` (unsigned most then least significant bits);
* partitions in ascending order.

A topic id that a member subscribes to but `topics` does not know is skipped (Kafka resolves subscriptions
against the metadata image, so its assignors never see one). A current assignment may name anything: topics
that are gone or no longer subscribed, partitions past the end, a partition claimed by two members (the
first member in member order keeps it); none of that is an error.
"""

from __future__ import annotations

from groupctl.coordinator.assignors.common import Assignment, AssignorError, MemberSpec
from groupctl.coordinator.assignors.range import RangeAssignor
from groupctl.coordinator.assignors.uniform import UniformAssignor

__all__ = ["ASSIGNORS", "Assignment", "AssignorError", "MemberSpec", "RangeAssignor", "UniformAssignor"]

ASSIGNORS: dict[str, UniformAssignor | RangeAssignor] = {
    UniformAssignor.name: UniformAssignor(),
    RangeAssignor.name: RangeAssignor(),
}
