-- wrk's `done` hook for bench/loadtest.sh: after wrk's own report, one machine-readable line
--   WRK_SUMMARY requests=… duration_s=… rps=… p50_ms=… p90_ms=… p99_ms=… max_ms=…
--               non2xx=… connect=… read=… write=… timeout=…
-- non2xx is wrk's errors.status: responses with a status of 400 or more (wrk's "Non-2xx or 3xx
-- responses"; the pages are checked for 200 before they are loaded). Latencies are in ms, from
-- the requests that completed (a request past wrk's --timeout is counted in timeout instead).
-- No request or response hook: those cost wrk a Lua call per request.
done = function(summary, latency, requests)
   local seconds = summary.duration / 1e6
   local e = summary.errors
   io.write(string.format(
      "WRK_SUMMARY requests=%d duration_s=%.3f rps=%.2f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f"
         .. " max_ms=%.2f non2xx=%d connect=%d read=%d write=%d timeout=%d\n",
      summary.requests, seconds, summary.requests / seconds,
      latency:percentile(50) / 1000, latency:percentile(90) / 1000,
      latency:percentile(99) / 1000, latency.max / 1000,
      e.status, e.connect, e.read, e.write, e.timeout))
end
