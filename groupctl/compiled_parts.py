"""The switch between a compiled part and its pure-Python reference, one rule for every such part.

Each compiled extension (the record loop, the uniform assignor's builders) is optional: `pip install` builds it
where a C compiler is present, and the pure-Python code it mirrors stays the reference it is tested
against. `GROUPCTL_PURE_PYTHON=1` forces every reference; tests force one side with `forced`;
`groupctl --version` prints each part's `describe` line.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from types import ModuleType

PURE_ENV = "GROUPCTL_PURE_PYTHON"
NOT_BUILT = "not built: pip install builds it where a C compiler is present"


class CompiledPart:
    """One compiled extension: loaded once on first use, used unless switched off or forced."""

    def __init__(self, label: str, load: Callable[[], ModuleType]) -> None:
        self.label = label
        self._load = load  # raises ImportError when the extension is not built
        self._loaded: ModuleType | None = None
        self._tried = False
        self._forced: bool | None = None  # tests: True = reference only, False = compiled when built

    def built(self) -> ModuleType | None:
        """The extension when it is built and loads, whatever the switch says (tests call it directly)."""
        if not self._tried:
            self._tried = True
            try:
                self._loaded = self._load()
            except ImportError:
                self._loaded = None
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

    def describe(self) -> str:
        """One line saying which one runs, for `groupctl --version`."""
        if self.built() is None:
            return f"{self.label}: pure Python ({NOT_BUILT})"
        if self.module() is None:
            return f"{self.label}: pure Python ({PURE_ENV} is set)"
        return f"{self.label}: compiled"

    @contextlib.contextmanager
    def forced(self, pure: bool) -> Iterator[None]:
        """Run the block with the reference only (`pure`) or with the compiled part (tests compare both)."""
        before = self._forced
        self._forced = pure
        try:
            yield
        finally:
            self._forced = before
