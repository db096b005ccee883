"""The generated message classes (see `groupctl.protocol.datagen`), and their lookup by schema name."""

from __future__ import annotations

import functools

from groupctl.protocol.data.base import Data


@functools.cache
def _all() -> dict[str, type[Data]]:
    """Every top-level class by schema name; the modules are imported on first use (a listener
    imports all of them at once, a `dump` run only `records`)."""
    import importlib
    import pkgutil

    found: dict[str, type[Data]] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name == "base":
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        found.update(module.CLASSES)
    return found


def class_for(schema_name: str) -> type[Data]:
    """The class generated from the schema named `schema_name` (`Message.name`)."""
    return _all()[schema_name]
