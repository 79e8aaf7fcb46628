#!/bin/sh
# Install the test tools into .venv, lint, and run the whole suite (DATABASE_URL picks the
# database; a PostgreSQL one installs the postgres extra too). Arguments go to pytest.
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
exec .venv/bin/python -m pytest "$@"
