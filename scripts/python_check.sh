#!/usr/bin/env bash
# The Python package as a user gets it: builds the x86_64 wheel (scripts/build-wheel.sh),
# installs it into a fresh venv with pip --no-index, and runs python/tests there against
# the installed package and its bundled binary. The Spider tests need ../shared and skip,
# saying so, without it. Prints "python tests: N passed, N failed, N skipped"; exits 1 on
# a failure. Needs python3 with venv and ensurepip (Debian: apt-get install python3-venv).
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
start=$(date +%s)

version="${VERSION:-$(sed -n 's/^## \([0-9][0-9A-Za-z.+-]*\).*/\1/p' CHANGELOG.md | awk 'NR == 1')}"
rm -f dist/nl2sqlbench-"$version"-*x86_64.whl
echo "== wheel (scripts/build-wheel.sh)"
TARGETS=amd64 bash scripts/build-wheel.sh
wheel="$(ls dist/nl2sqlbench-"$version"-py3-none-manylinux_*_x86_64.whl)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "== fresh venv, pip install --no-index $wheel"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --no-index --disable-pip-version-check "$wheel"

echo "== python tests (unittest, from the installed wheel)"
# Run outside the repository so `import nl2sqlbench` is the installed package, never python/.
cd "$work"
NL2SQLBENCH_SHARED="${NL2SQLBENCH_SHARED:-$repo/../shared}" NL2SQLBENCH_BINARY= \
  "$work/venv/bin/python" - "$repo/python/tests" <<'PY'
import sys, unittest

import nl2sqlbench

print(f"nl2sqlbench {nl2sqlbench.__version__} from {nl2sqlbench.__file__}", flush=True)
if not nl2sqlbench.__file__.startswith(sys.prefix):
    sys.exit("python_check.sh: imported nl2sqlbench from outside the venv")
suite = unittest.defaultTestLoader.discover(sys.argv[1], top_level_dir=sys.argv[1])
res = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
bad = len(res.failures) + len(res.errors) + len(res.unexpectedSuccesses)
skipped = len(res.skipped)
print(f"python tests: {res.testsRun - bad - skipped} passed, {bad} failed, {skipped} skipped")
for test, why in res.skipped:
    print(f"  skipped {test.id()}: {why}")
if res.testsRun == 0:
    print("python_check.sh: warning: no tests ran")  # nothing ran is not a failure (pytest's exit 5)
sys.exit(1 if bad else 0)
PY
echo "python check took $(( $(date +%s) - start ))s"
