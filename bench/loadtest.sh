#!/bin/sh
# Load test: the app under gunicorn (2 workers) on PostgreSQL at the benchmark's data size, with
# wrk on loopback for a bounded time. Prints requests/s and latency percentiles per page.
#
#   sh bench/loadtest.sh               # builds the club into database clubbench, then loads it
#   SKIP_BUILD=1 sh bench/loadtest.sh  # reuse the club already there
set -eu
cd "$(dirname "$0")/.."
DB_NAME=${LOADTEST_DB:-clubbench}
DB_URL="postgres://postgres@127.0.0.1:5432/$DB_NAME"
PORT=${LOADTEST_PORT:-8765}
DURATION=${LOADTEST_DURATION:-20s}

command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
.venv/bin/python -m pip install --quiet -e ".[bench]"
psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='$DB_NAME'" | grep -q 1 \
  || createdb -h 127.0.0.1 -U postgres "$DB_NAME"
if [ -z "${SKIP_BUILD:-}" ]; then
  DATABASE_URL=$DB_URL .venv/bin/python bench/run.py --scored 0 --samples 5
fi

export DATABASE_URL=$DB_URL SECRET_KEY=$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))') DEBUG=false
export ALLOWED_HOSTS=127.0.0.1 SECURE_SSL_REDIRECT=false
.venv/bin/python manage.py collectstatic --no-input -v0
HEAVY=$(.venv/bin/python manage.py shell --no-imports -c "
from django.db.models import Count
from ratings.models import Result
pid = Result.objects.filter(game__league__slug='big').values_list('player_id').annotate(n=Count('id')).order_by('-n')[0][0]
from ratings.models import Player; print(Player.objects.get(pk=pid).slug)")
.venv/bin/gunicorn club.wsgi -w 2 -b "127.0.0.1:$PORT" --log-level warning &
SERVER=$!
trap 'kill $SERVER 2>/dev/null' EXIT
for _ in $(seq 1 50); do
  curl -fsS -o /dev/null "http://127.0.0.1:$PORT/leagues/big/" 2>/dev/null && break
  sleep 0.2
done
for page in "/leagues/big/" "/players/$HEAVY/"; do
  echo "=== $page ($DURATION, 2 threads, 16 connections)"
  wrk -t2 -c16 -d"$DURATION" --timeout 10s --latency "http://127.0.0.1:$PORT$page" \
    | grep -E "Requests/sec|Latency|50%|99%|Non-2xx|Socket errors|requests in"
done
