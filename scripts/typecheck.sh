#!/usr/bin/env bash
# Runs mypy on groupctl/ the way CI does: the files, the Python version and every setting come from
# [tool.mypy] in pyproject.toml, the stubs from the dev extra. Exits non-zero on any error, including a
# `# type: ignore` that no longer suppresses anything (warn_unused_ignores).
#
# Usage: scripts/typecheck.sh [mypy args...]   (PYTHON selects the interpreter; default python3)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}
cd "$root"
exec "$python" -m mypy --config-file pyproject.toml "$@"
