# Summarises bench/proxy/run.sh's throughput.tsv (one line per wrk run:
# run, case, server, requests, req/s, p50 ms, p99 ms, errors, bytes per
# response (unused: wrk counts the partial bytes of responses cut off at the
# end of the run), load average before (3 fields) and after (3 fields), CPU
# seconds the front Caddy process used during the run) as
# Markdown: the mean over rounds per case and server, with agent_ready's
# ratio to plain Caddy, then every run with the load average around it.
# CPU µs per request (the front's user+system time over the requests wrk
# completed) is the overhead measure least disturbed by other processes on
# a shared machine: req/s depends on the CPU share the front gets.
# -v size2mb=N: bytes of the 2 MB page, for the cold conversion's MB/s.
BEGIN { FS = "\t" }
# us: CPU µs per request, or 0 with no request.
function us(sec, n) { return n > 0 ? sec * 1e6 / n : 0 }
{
	k = $2 SUBSEP $3
	if (!(k in n)) { order[++nk] = k }
	n[k]++; rps[k] += $5; p50[k] += $6; p99[k] += $7; err[k] += $8; req[k] += $4; cpu[k] += $16
	raw[++nr] = sprintf("| %s | %s | %s | %.1f | %.2f | %.2f | %d | %.0f | %s %s %s | %s %s %s |", $1, $2, $3, $5, $6, $7, $8, us($16, $4), $10, $11, $12, $13, $14, $15)
}
END {
	print "| case | server | req/s | p50 ms | p99 ms | errors | CPU µs/req | req/s vs plain | p99 vs plain | CPU/req vs plain |"
	print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	for (i = 1; i <= nk; i++) {
		k = order[i]; split(k, f, SUBSEP)
		r = rps[k] / n[k]; q = p99[k] / n[k]
		ratio = ""; pr = ""; cr = ""
		if (f[2] != "plain") {
			pk = f[1] SUBSEP "plain"
			if (pk in n) {
				ratio = sprintf("%.3f", r / (rps[pk] / n[pk]))
				pr = sprintf("%.3f", q / (p99[pk] / n[pk]))
				if (us(cpu[pk], req[pk]) > 0) cr = sprintf("%.2f", us(cpu[k], req[k]) / us(cpu[pk], req[pk]))
			}
		}
		printf "| %s | %s | %.1f | %.2f | %.2f | %d | %.0f | %s | %s | %s |\n", f[1], f[2], r, p50[k] / n[k], q, err[k], us(cpu[k], req[k]), ratio, pr, cr
		if (f[1] == "md-cold-2MB" && f[2] != "plain" && size2mb > 0)
			cold = sprintf("Cold Markdown of the 2 MB page: %.1f req/s × %d bytes = %.1f MB/s of HTML (wall); %.0f ms of CPU per page = %.1f MB/s per CPU second.", r, size2mb, r * size2mb / 1e6, us(cpu[k], req[k]) / 1000, us(cpu[k], req[k]) > 0 ? size2mb / us(cpu[k], req[k]) : 0)
	}
	if (cold != "") print "\n" cold
	print "\nEvery run (rounds alternate which server goes first):\n"
	print "| round | case | server | req/s | p50 ms | p99 ms | errors | CPU µs/req | load before | load after |"
	print "|---:|---|---|---:|---:|---:|---:|---:|---|---|"
	for (i = 1; i <= nr; i++) print raw[i]
}
