-- wrk script of bench/proxy/run.sh: sends the Accept header in $ACCEPT and
-- ends with one machine-readable line:
-- RESULT <requests> <req/s> <p50 ms> <p99 ms> <errors> <bytes/response>
wrk.headers["Accept"] = os.getenv("ACCEPT") or "*/*"

done = function(summary, latency, requests)
	local e = summary.errors
	local errors = e.connect + e.read + e.write + e.status + e.timeout
	io.write(string.format("RESULT %d %.1f %.3f %.3f %d %d\n",
		summary.requests,
		summary.requests / (summary.duration / 1e6),
		latency:percentile(50) / 1000,
		latency:percentile(99) / 1000,
		errors,
		summary.bytes / math.max(summary.requests, 1)))
end
