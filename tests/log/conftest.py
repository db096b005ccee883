"""The record loop the decoder-level tests run on: each runs on the pure-Python reference and on the
compiled loop (skipped, with the reason, when the extension is not built; `.ci/run` builds it)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from groupctl.log import fast

NOT_BUILT = "the compiled record loop (groupctl/log/_fastlog.c) is not built: pip install -e . builds it"


@pytest.fixture(params=["reference", "compiled"])
def record_loop(request: pytest.FixtureRequest) -> Iterator[str]:
    """Forces one record loop for the test; `compiled` skips when the extension is absent."""
    compiled = request.param == "compiled"
    if compiled and not fast.available():
        pytest.skip(NOT_BUILT)
    with fast.forced(not compiled):
        yield request.param


COMPILED_LOOP_ONLY = pytest.mark.parametrize("record_loop", ["compiled"], indirect=True)
"""For a test, in a module run on both loops, of the product's code reaching the compiled loop: `record_loop`
on the compiled loop alone (forced on even under GROUPCTL_PURE_PYTHON=1; skipped when it is not built)."""
