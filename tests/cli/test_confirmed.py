"""The shared plan -> show -> confirm -> apply flow of the changing group commands."""

from __future__ import annotations

import contextlib
import io
from types import SimpleNamespace

import pytest

from groupctl.cli import confirmed
from groupctl.errors import NotConfirmed, UsageError


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []

    @contextlib.contextmanager
    def fake_open(_choice):  # type: ignore[no-untyped-def]
        seen.append("open")
        yield SimpleNamespace(location="lab")
        seen.append("close")

    monkeypatch.setattr(confirmed, "open_cluster", fake_open)
    return seen


def _run(calls: list[str], *, yes: bool = False, dry_run: bool = False, question: str | None = "Go?"):
    return confirmed.plan_confirm_apply(
        None,  # type: ignore[arg-type]
        plan=lambda _b: calls.append("plan") or ["item"],
        apply=lambda _b, plan: calls.append("apply") or f"applied {plan}",
        show=lambda plan, location: calls.append(f"show {plan} on {location}"),
        question=lambda _plan, _location: question,
        refused="nothing applied", yes=yes, dry_run=dry_run,
    )


def test_yes_applies_on_the_connection_that_planned(calls: list[str]) -> None:
    assert _run(calls, yes=True) == (["item"], "applied ['item']")
    assert calls == ["open", "plan", "show ['item'] on lab", "apply", "close"]


def test_a_dry_run_plans_only(calls: list[str]) -> None:
    assert _run(calls, dry_run=True, yes=True) == (["item"], None)
    assert calls == ["open", "plan", "close"]


def test_a_person_is_asked_between_two_connections(calls: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))
    assert _run(calls)[1] == "applied ['item']"
    assert calls == ["open", "plan", "close", "show ['item'] on lab", "open", "apply", "close"]


def test_a_refusal_changes_nothing(calls: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))
    with pytest.raises(NotConfirmed, match=r"not confirmed: nothing changed \(nothing applied\)") as refused:
        _run(calls)
    assert refused.value.exit_code == 1
    assert "apply" not in calls


def test_a_plan_that_changes_nothing_is_sent_without_a_question(calls: list[str],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # nothing to read: asking would refuse
    assert _run(calls, question=None)[1] == "applied ['item']"


def test_without_a_terminal_yes_or_dry_run_is_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with pytest.raises(UsageError, match="no one to confirm the reset: pass --yes \\(or --dry-run to see the plan\\)"):
        confirmed.require_someone_to_ask(False, False, "the reset", "see the plan")
    confirmed.require_someone_to_ask(True, False, "the reset", "see the plan")
    confirmed.require_someone_to_ask(False, True, "the reset", "see the plan")
