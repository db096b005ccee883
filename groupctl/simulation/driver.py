"""Running simulated clients and the coordinator together on the virtual clock.

Shared by the rolling-bounce simulator and the local backend's simulated members: time moves in
small steps, jumping over stretches where no client and no timer is due, and at each instant the
clients react to each other until nothing more happens (bounded).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from groupctl.coordinator.coordinator import Coordinator
    from groupctl.simulation.clients import SimulatedClient

#: Virtual time moves in steps of this size, jumping over stretches where nothing is due.
STEP_MS = 100
#: One instant's chain of reactions (an answer waking another client ...) is cut off after this many passes.
MAX_PASSES = 64


class VirtualTimeDriver:
    """What a simulation needs from time; subclasses say which clients run and what to note after a step."""

    coord: Coordinator

    @property
    def now(self) -> int:
        return self.coord.clock.now_ms()

    def active_clients(self) -> Sequence[SimulatedClient]:
        raise NotImplementedError

    def after_step(self) -> None:
        """Let every client act on what it learnt at this instant (subclasses add their bookkeeping)."""
        self.tick_all()

    def tick_all(self) -> None:
        for _ in range(MAX_PASSES):
            acted = False
            for client in self.active_clients():
                acted |= client.tick()
            if not acted:
                return

    def advance(self, deadline: int) -> None:
        """One step: to the next step boundary at which anything is due (never past `deadline`)."""
        now = self.now
        due = [d for c in self.active_clients() if (d := c.next_due()) is not None]
        timer = self.coord.next_timer_deadline()
        if timer is not None:
            due.append(timer)
        if not due:
            target = deadline  # nothing can happen before it
        else:
            target = now + STEP_MS
            if min(due) > target:
                target = now + -(-(min(due) - now) // STEP_MS) * STEP_MS
        self.coord.advance_to(min(target, deadline))
        self.after_step()

    def run_until(self, deadline: int, until: Callable[[], bool] | None = None) -> bool:
        """Step until `until()` holds (True) or `deadline` passes (False; True when there is no condition)."""
        while True:
            if until is not None and until():
                return True
            if self.now >= deadline:
                return until is None
            self.advance(deadline)
