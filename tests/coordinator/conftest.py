"""Shared by the KIP-848 case studies and the simulation: views of the coordinator's state in the KIP's
terms. Both drive the library's simulated consumer (`groupctl.simulation.clients.ConsumerClient`).

Helpers reach the tests through the `kit` fixture (pytest runs with --import-mode=importlib, so a
test module cannot import this conftest by name).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import SimpleNamespace

import pytest

from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.state import assignment_map
from groupctl.model import MemberState

GROUP = "g"
STATE_NAMES = {MemberState.STABLE: "STABLE", MemberState.UNREVOKED_PARTITIONS: "UNREVOKED_PARTITIONS",
               MemberState.UNRELEASED_PARTITIONS: "UNRELEASED_PARTITIONS"}


def names(coord: Coordinator, assignment: Mapping[uuid.UUID, Iterable[int]]) -> list[str]:
    """An assignment as the KIP writes it: `foo-0`, sorted by topic name then partition."""
    by_id = {t.topic_id: t.name for t in coord.topics}
    pairs = sorted((by_id.get(t, str(t)), p) for t, ps in assignment.items() for p in ps)
    return [f"{t}-{p}" for t, p in pairs]


@dataclass(frozen=True)
class MemberView:
    """A member as the KIP's pictures show it, plus the reconciliation state Kafka stores.

    `pending` is the KIP's `pending-partitions`: partitions of the member's target it waits for because
    their previous owner has not released them (Kafka's UNRELEASED_PARTITIONS state); `revoking` is what
    it was asked to give up and has not acknowledged yet (UNREVOKED_PARTITIONS).
    """

    epoch: int
    state: str
    partitions: tuple[str, ...]
    revoking: tuple[str, ...] = ()
    pending: tuple[str, ...] = ()


def expect(epoch: int, partitions: Iterable[str] = (), *, pending: Iterable[str] = (),
           revoking: Iterable[str] = ()) -> MemberView:
    """The MemberView a spec line describes; the state follows from what is outstanding."""
    pending, revoking = tuple(sorted(pending)), tuple(sorted(revoking))
    state = "UNREVOKED_PARTITIONS" if revoking else "UNRELEASED_PARTITIONS" if pending else "STABLE"
    return MemberView(epoch, state, tuple(sorted(partitions)), revoking, pending)


def member_view(coord: Coordinator, member_id: str, group_id: str = GROUP) -> MemberView:
    group = coord.runtime.state.consumer[group_id]
    cur = group.current[member_id]
    assigned = assignment_map(cur.assigned_partitions)
    target = group.targets_map(member_id)
    state = STATE_NAMES.get(cur.state, str(cur.state))
    pending: list[str] = []
    if cur.state == MemberState.UNRELEASED_PARTITIONS:
        pending = sorted(set(names(coord, target)) - set(names(coord, assigned)))
    return MemberView(cur.member_epoch, state, tuple(names(coord, assigned)),
                      tuple(names(coord, assignment_map(cur.partitions_pending_revocation))), tuple(pending))


def targets(coord: Coordinator, group_id: str = GROUP) -> dict[str, list[str]]:
    group = coord.runtime.state.consumer[group_id]
    return {m: names(coord, group.targets_map(m)) for m in sorted(group.targets)}


def assert_group(coord: Coordinator, *, epoch: int, target_epoch: int, target: Mapping[str, Iterable[str]],
                 members: Mapping[str, MemberView], labels: Mapping[str, str] | None = None,
                 group_id: str = GROUP) -> None:
    """The three blocks of the KIP's pictures: group epoch and members, target assignment, member assignment.

    `labels` maps member ids to the names used in the expectations (A, B, ...) for readable failures.
    """
    labels = labels or {}
    group = coord.runtime.state.consumer[group_id]
    label = {mid: labels.get(mid, mid) for mid in group.member_ids()}
    actual = {
        "group epoch": group.epoch,
        "members": sorted(label.values()),
        "target epoch": group.assignment_epoch,
        "target": {label.get(m, m): ps for m, ps in targets(coord, group_id).items()},
        "member assignment": {label[m]: member_view(coord, m, group_id) for m in group.member_ids()},
    }
    wanted = {
        "group epoch": epoch,
        "members": sorted(members),
        "target epoch": target_epoch,
        "target": {m: sorted(ps) for m, ps in target.items()},
        "member assignment": dict(members),
    }
    assert actual == wanted


@pytest.fixture
def kit() -> SimpleNamespace:
    """The helpers above, for test modules."""
    return SimpleNamespace(
        GROUP=GROUP, MemberView=MemberView, expect=expect, member_view=member_view, targets=targets,
        assert_group=assert_group, names=names, STATE_NAMES=STATE_NAMES,
    )


@pytest.fixture(params=["reference", "compiled"])
def homogeneous_builder(request: pytest.FixtureRequest) -> Iterator[str]:
    """Runs the test on the uniform assignor's pure-Python builders and on the compiled ones (the homogeneous
    builder, the heterogeneous one's keep, deal and balance steps; skipped, with the reason, when
    `assignors/_uniformc.c` is not built)."""
    from groupctl.coordinator.assignors import compiled

    if request.param == "compiled" and not compiled.available():
        pytest.skip("the compiled homogeneous builder (assignors/_uniformc.c) is not built: pip install -e . builds it")
    with compiled.forced(request.param == "reference"):
        yield request.param


COMPILED_BUILDERS_ONLY = pytest.mark.parametrize("homogeneous_builder", ["compiled"], indirect=True)
"""For a test, in a module run on both builders, of the product's code reaching the compiled ones:
`homogeneous_builder` on the compiled builders alone (forced on even under GROUPCTL_PURE_PYTHON=1; skipped when
`assignors/_uniformc.c` is not built)."""
