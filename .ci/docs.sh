#!/usr/bin/env bash
# The API reference (issue 17): mkdocs-material + mkdocstrings over the
# installed package's docstrings, built with warnings as errors, then
# docs/check_api.py checks every public name of threes._api is documented.
# Run in an environment where threes-core is installed (.ci/run's).
set -euo pipefail
cd "$(dirname "$0")/.."
# the [docs] extra's packages, read from pyproject.toml (installing ".[docs]"
# would build the wheel again)
mapfile -t reqs < <(python - <<'PY'
import tomllib
with open("pyproject.toml", "rb") as f:
    print("\n".join(tomllib.load(f)["project"]["optional-dependencies"]["docs"]))
PY
)
python -m pip install -q "${reqs[@]}"
NO_MKDOCS_2_WARNING=1 python -m mkdocs build --strict --site-dir build/site
python docs/check_api.py build/site
