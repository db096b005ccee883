#!/usr/bin/env bash
# Builds both C extensions (groupctl/log/_fastlog.c, groupctl/coordinator/assignors/_uniformc.c) once more with
# AddressSanitizer and UndefinedBehaviorSanitizer, in a copy of this tree, and runs the tests that compare the
# compiled paths with their pure-Python references under that build. Any sanitizer report fails the run.
#
# PYTHONMALLOC=malloc makes Python's objects plain malloc blocks, so ASan sees a read of a freed object (a
# borrowed reference used after its owner let go) instead of a still-mapped pymalloc arena. Leak checking is off:
# the interpreter itself keeps allocations until exit. -fno-wrapv undoes the -fwrapv of Python's own CFLAGS,
# which would otherwise define signed overflow and hide it from UBSan.
#
# Usage: scripts/sanitize.sh [pytest args...]   (PYTHON selects the interpreter; default python3)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}

# The compiled-path equality tests: every record loop and printer against the reference (the shared vectors
# when ../shared is present, generated and damaged batches, the differential fuzz), and both assignor builders.
tests=(
  tests/log/test_fast.py
  tests/log/test_fast_values.py
  tests/log/test_differential_fuzz.py
  tests/coordinator/assignors/test_compiled.py
  tests/coordinator/assignors/test_compiled_heterogeneous.py
)

work=$(mktemp -d "${TMPDIR:-/tmp}/groupctl-sanitize.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/repo"
# The tree as it is (tracked and untracked files), without builds, caches or the history.
tar -C "$root" -c --exclude=./.git --exclude=./build --exclude='*.so' --exclude='*.o' --exclude=__pycache__ \
  --exclude=.hypothesis --exclude=.pytest_cache --exclude=.ruff_cache --exclude='*.egg-info' . \
  | tar -C "$work/repo" -x
# The tests find the real-broker vectors at ../shared beside the checkout.
if [ -d "$root/../shared" ]; then
  ln -s "$(cd "$root/../shared" && pwd)" "$work/shared"
fi

sanitize="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
asan=$(gcc -print-file-name=libasan.so)
ubsan=$(gcc -print-file-name=libubsan.so)
for lib in "$asan" "$ubsan"; do
  [ -f "$lib" ] || { echo "sanitize.sh: $lib not found (gcc's sanitizer runtimes are needed)" >&2; exit 1; }
done

cd "$work/repo"
CFLAGS="$sanitize -fno-wrapv -O1 -g" LDFLAGS="$sanitize" "$python" setup.py -q build_ext --inplace >build.log 2>&1 \
  || { cat build.log >&2; exit 1; }

export LD_PRELOAD="$asan $ubsan"
export PYTHONMALLOC=malloc
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:halt_on_error=1:print_legend=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
unset GROUPCTL_PURE_PYTHON

# Both extensions must be the sanitized builds of this copy, or the run would prove nothing.
"$python" - "$work/repo" <<'EOF'
import sys
from pathlib import Path

from groupctl.coordinator.assignors import compiled
from groupctl.log import fast

here = Path(sys.argv[1]).resolve()
for name, mod in (("_fastlog", fast.module()), ("_uniformc", compiled.module() if compiled.available() else None)):
    if mod is None:
        sys.exit(f"sanitize.sh: {name} did not build or load under the sanitizers")
    path = Path(mod.__file__).resolve()
    if here not in path.parents:
        sys.exit(f"sanitize.sh: {name} was loaded from {path}, not from the sanitized copy")
    if b"__asan_report" not in path.read_bytes() or b"__ubsan_handle" not in path.read_bytes():
        sys.exit(f"sanitize.sh: {path} is not instrumented")
print("sanitize.sh: both extensions built with -fsanitize=address,undefined")
EOF

set +e
"$python" -m pytest -p no:cacheprovider -q -x "${tests[@]}" "$@" 2>&1 | tee pytest.log
status=${PIPESTATUS[0]}
set -e
# A report aborts the process (abort_on_error), but say so plainly, and fail on one printed without an abort.
if grep -qE "ERROR: AddressSanitizer|runtime error:|SUMMARY: (Address|UndefinedBehavior)Sanitizer" pytest.log; then
  echo "sanitize.sh: a sanitizer reported an error (above)" >&2
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "sanitize.sh: the tests failed under the sanitized build (exit $status)" >&2
fi
exit "$status"
