"""The switch between a compiled part and its pure-Python reference, one rule for every such part.

Each compiled extension (the record loop, the uniform assignor's builders) is optional: `pip install` builds it
where a C compiler is present, and the pure-Python code it mirrors stays the reference it is tested
against. `GROUPCTL_PURE_PYTHON=1` forces every reference; tests force one side with `forced`;
`groupctl --version` prints each part's `describe` line, which says whenever compiled code is off, and why: not
built, built but not loading (with the error), switched off, or a step of it declining what it should take on
this Python (found by `probe`, which gives each step a small input it must take).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
from collections.abc import Callable, Iterator
from types import ModuleType

PURE_ENV = "GROUPCTL_PURE_PYTHON"
NOT_BUILT = "not built: pip install builds it where a C compiler is present"


class CompiledPart:
    """One compiled extension: loaded once on first use, used unless switched off or forced."""

    def __init__(
        self,
        label: str,
        load: Callable[[], ModuleType],
        name: str | None = None,
        probe: Callable[[ModuleType], dict[str, str]] | None = None,
    ) -> None:
        self.label = label
        self._load = load  # raises ImportError when the extension is not built or does not load
        self._name = name  # the extension's module name: tells "not built" from "built, does not load"
        self._probe = probe  # module -> {step: why it is off} for the steps that decline their probe input
        self._loaded: ModuleType | None = None
        self._error: ImportError | None = None
        self._tried = False
        self._forced: bool | None = None  # tests: True = reference only, False = compiled when built

    def built(self) -> ModuleType | None:
        """The extension when it is built and loads, whatever the switch says (tests call it directly)."""
        if not self._tried:
            self._tried = True
            try:
                self._loaded = self._load()
            except ImportError as exc:
                self._loaded, self._error = None, exc
        return self._loaded

    def module(self) -> ModuleType | None:
        """The extension, or None when the reference is to run (not built, or switched off)."""
        if self._forced is not None:
            return None if self._forced else self.built()
        if os.environ.get(PURE_ENV, "") not in ("", "0"):
            return None
        return self.built()

    def available(self) -> bool:
        """Whether the extension is built and loads (whatever the switch says)."""
        return self.built() is not None

    def steps_off(self) -> dict[str, str]:
        """The extension's steps that decline the input their probe says they must take, with why (a step that
        declines runs its pure-Python path for every input); empty when all run, or when nothing is built."""
        native = self.built()
        if native is None or self._probe is None:
            return {}
        return self._probe(native)

    def describe(self) -> str:
        """One line saying which one runs, and why not the compiled one, for `groupctl --version`."""
        if self.built() is None:
            return f"{self.label}: pure Python ({self._why_not_loaded()})"
        if self.module() is None:
            return f"{self.label}: pure Python ({PURE_ENV} is set)"
        off = self.steps_off()
        if off:
            steps = "; ".join(f"{step}: {why}" for step, why in off.items())
            return f"{self.label}: compiled, some steps in pure Python ({steps})"
        return f"{self.label}: compiled"

    def _why_not_loaded(self) -> str:
        if self._name is None or self._error is None:
            return NOT_BUILT
        try:
            found = importlib.util.find_spec(self._name) is not None
        except (ImportError, ValueError):
            found = False
        return f"built but does not load: {self._error}" if found else NOT_BUILT

    @contextlib.contextmanager
    def forced(self, pure: bool) -> Iterator[None]:
        """Run the block with the reference only (`pure`) or with the compiled part (tests compare both)."""
        before = self._forced
        self._forced = pure
        try:
            yield
        finally:
            self._forced = before
