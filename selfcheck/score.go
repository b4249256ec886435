package selfcheck

// score fills the totals of r from its checks (STANDARD.md §1): optional
// checks never score; NOT_APPLICABLE leaves the denominator;
// COULD_NOT_CHECK keeps its weight and earns nothing.
func (r *Report) score() {
	r.Sections = r.Sections[:0]
	r.Earned, r.Applicable = 0, 0
	r.CouldNotCheck = []string{}
	bySection := map[Section]*SectionResult{}
	for _, s := range Sections() {
		r.Sections = append(r.Sections, SectionResult{ID: s.ID, Title: s.Title, Points: s.Points})
	}
	for i := range r.Sections {
		bySection[r.Sections[i].ID] = &r.Sections[i]
	}
	for i := range r.Checks {
		c := &r.Checks[i]
		switch c.Verdict {
		case Pass:
			c.Fraction = 1
		case Partial:
		default:
			c.Fraction = 0
		}
		c.Earned = round2(c.Weight * c.Fraction)
		if c.Verdict == CouldNotCheck {
			r.CouldNotCheck = append(r.CouldNotCheck, c.ID)
		}
		s := bySection[c.Section]
		if s == nil || c.Verdict == NotApplicable || c.Verdict == Optional || c.Verdict == Unverified {
			continue
		}
		s.Earned = round2(s.Earned + c.Earned)
		s.Applicable += c.Weight
		r.Earned = round2(r.Earned + c.Earned)
		r.Applicable += c.Weight
	}
	// Rule 3: no perfect Connect score on missing evidence. Wherever a
	// backend interface applies (R9 is not NOT_APPLICABLE), tested
	// execution stays UNVERIFIED and the section says so.
	if c := r.checkByID("backend_interface_declared"); c != nil && c.Verdict != NotApplicable {
		if s := bySection[SectionConnect]; s != nil {
			for _, u := range r.Unverified {
				s.Unverified = append(s.Unverified, u.ID)
			}
		}
	}
	r.Score = 0
	if r.Applicable > 0 {
		r.Score = float64(int64(1000*r.Earned/r.Applicable+0.5)) / 10
	}
}
