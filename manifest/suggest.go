package manifest

// suggest returns the candidate closest to word by edit distance, or "" when
// none is close enough to be a plausible typo (at most a third of the word's
// length, and at least one edit allowed).
func suggest(word string, candidates []string) string {
	best, bestDist := "", -1
	limit := max(len(word)/3, 1)
	for _, c := range candidates {
		d := editDistance(word, c)
		if d <= limit && (bestDist < 0 || d < bestDist) {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes. Keys
// longer than 64 bytes are not worth a suggestion, which keeps the cost bounded.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 20
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
