#!/bin/sh
# Install the test tools into .venv, lint, and run the whole suite (DATABASE_URL picks the
# database; a PostgreSQL one installs the postgres extra too). Arguments go to pytest, after
# the default of one worker per core (pytest-xdist; a test module stays on one worker, so its
# browser and fixtures are built once): `-n 0` runs in this process.
set -eu
cd "$(dirname "$0")/.."
. scripts/venv.sh
case "${DATABASE_URL:-}" in
    postgres*) database=PostgreSQL extras=test,postgres ;;
    *) database=SQLite extras=test ;;
esac
venv_install ".[$extras]"
step "ruff check"
.venv/bin/ruff check .
step "ruff format --check"
.venv/bin/ruff format --check .
step "pytest on $database"
exec .venv/bin/python -m pytest -n auto --dist loadfile "$@"
