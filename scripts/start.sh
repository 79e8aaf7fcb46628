#!/bin/sh
# Install everything into .venv and start the club on SQLite with a demo club (first run only).
set -eu
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e .
export DEBUG="${DEBUG:-true}"
.venv/bin/python manage.py migrate --no-input
.venv/bin/python manage.py demo
exec .venv/bin/python manage.py runserver "${ADDRESS:-127.0.0.1:8000}"
