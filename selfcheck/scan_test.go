package selfcheck

import (
	"testing"
)

func TestAgentReadySiteScoresFull(t *testing.T) {
	s := agentReadySite(t)
	r := scanHandler(t, s, Options{})
	for _, c := range r.Checks {
		t.Logf("%-30s %-15s %5s/%-3s %s", c.ID, c.Verdict, num(c.Earned), num(c.Weight), c.Missing)
	}
	t.Logf("score %v routes %v", r.Score, r.Routes)
}

func TestDebugBare(t *testing.T) {
	r := scanHandler(t, bareSite(), Options{})
	for _, c := range r.Checks {
		t.Logf("%-30s %-15s %5s/%-3s %s | %s", c.ID, c.Verdict, num(c.Earned), num(c.Weight), c.Missing, c.Receipt.Note)
	}
	t.Logf("score %v routes %v", r.Score, r.Routes)
	r = scanHandler(t, agentReadySite(t), Options{})
	for _, c := range r.sectionChecks(SectionOptional) {
		t.Logf("%-30s %v %s", c.ID, *c.Found, c.Receipt.Note)
	}
}
