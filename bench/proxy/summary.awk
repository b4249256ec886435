# Summarises bench/proxy/run.sh's throughput.tsv (one line per wrk run:
# run, case, server, requests, req/s, p50 ms, p99 ms, errors, bytes per
# response, load average before (3 fields) and after (3 fields)) as
# Markdown: the mean over rounds per case and server, with agent_ready's
# ratio to plain Caddy, then every run with the load average around it.
# -v size2mb=N: bytes of the 2 MB page, for the cold conversion's MB/s.
BEGIN { FS = "\t" }
{
	k = $2 SUBSEP $3
	if (!(k in n)) { order[++nk] = k }
	n[k]++; rps[k] += $5; p50[k] += $6; p99[k] += $7; err[k] += $8; bytes[k] = $9
	raw[++nr] = sprintf("| %s | %s | %s | %.1f | %.2f | %.2f | %d | %s %s %s | %s %s %s |", $1, $2, $3, $5, $6, $7, $8, $10, $11, $12, $13, $14, $15)
}
END {
	print "| case | server | req/s | p50 ms | p99 ms | errors | bytes/response | req/s vs plain | p99 vs plain |"
	print "|---|---|---:|---:|---:|---:|---:|---:|---:|"
	for (i = 1; i <= nk; i++) {
		k = order[i]; split(k, f, SUBSEP)
		r = rps[k] / n[k]; q = p99[k] / n[k]
		ratio = ""; pr = ""
		if (f[2] != "plain") {
			pk = f[1] SUBSEP "plain"
			if (pk in n) {
				ratio = sprintf("%.3f", r / (rps[pk] / n[pk]))
				pr = sprintf("%.3f", q / (p99[pk] / n[pk]))
			}
		}
		printf "| %s | %s | %.1f | %.2f | %.2f | %d | %d | %s | %s |\n", f[1], f[2], r, p50[k] / n[k], q, err[k], bytes[k], ratio, pr
		if (f[1] == "md-cold-2MB" && f[2] != "plain" && size2mb > 0)
			cold = sprintf("Cold Markdown of the 2 MB page: %.1f req/s × %d bytes = %.1f MB/s of HTML converted on this machine's shared cores.", r, size2mb, r * size2mb / 1e6)
	}
	if (cold != "") print "\n" cold
	print "\nEvery run (rounds alternate which server goes first):\n"
	print "| round | case | server | req/s | p50 ms | p99 ms | errors | load before | load after |"
	print "|---:|---|---|---:|---:|---:|---:|---|---|"
	for (i = 1; i <= nr; i++) print raw[i]
}
