"""gunicorn's settings for the club, read from the directory gunicorn starts in (the checkout):
``gunicorn club.wsgi`` with nothing else serves the club as docs/operations.md deploys it, and
the benchmarks (bench/loadtest.sh, bench/club_night.py) measure that.

Threads in each worker process (gunicorn's gthread workers): most of a request's time is spent
waiting, not computing: for the database, for the shared page cache, for another request that
is drawing the same page (ratings.page_cache.drawn_once), and a phone watching a paper gets a
304 after one query. A sync worker waits with its whole process; a thread lets the process serve
the next request meanwhile. Under a burst of writes into one league, when every write makes the
leaderboard be drawn again, that is the difference between a worker that serves the page from
the cache and one that sleeps (docs/performance.md).
"""

import os

# Environment first (WEB_CONCURRENCY is gunicorn's own name); a command-line option overrides both.
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
