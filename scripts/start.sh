#!/bin/sh
# Install everything into .venv and start the club on SQLite with a demo club (first run only).
# ADDRESS picks where it listens: ADDRESS=0.0.0.0:8080 sh scripts/start.sh (default 127.0.0.1:8000).
set -eu
cd "$(dirname "$0")/.."
. scripts/venv.sh
venv_install .
export DEBUG="${DEBUG:-true}"
address="${ADDRESS:-127.0.0.1:8000}"
case "$DEBUG" in
    1 | [Tt][Rr][Uu][Ee] | [Yy][Ee][Ss] | [Oo][Nn]) ;;
    # With DEBUG off the pages name the static files by the hashed names of the manifest.
    *) step "Collecting the static files"
       .venv/bin/python manage.py collectstatic --no-input --verbosity 0 ;;
esac
step "Migrating the database"
.venv/bin/python manage.py migrate --no-input
step "Creating the demo club (once: skipped when the club has leagues)"
.venv/bin/python manage.py demo
step "Starting the background worker (manage.py db_worker: auto-confirmations, chat posts)"
.venv/bin/python manage.py db_worker &
worker=$!
trap 'kill "$worker" 2>/dev/null' EXIT
trap 'exit 130' INT TERM
step "Serving the club at http://$address/ (Ctrl+C stops both)"
.venv/bin/python manage.py runserver "$address"
