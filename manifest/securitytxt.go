package manifest

import (
	"fmt"
	"strings"
	"time"
)

// securityContacts are the RFC 9116 Contact values: the configured ones, or
// mailto: of the human contact address.
func (r *resolved) securityContacts() []string {
	if c := r.s.Contacts.Security.Contact; len(c) > 0 {
		return c
	}
	if r.s.Contacts.Email != "" {
		return []string{"mailto:" + r.s.Contacts.Email}
	}
	return nil
}

// securityTxt renders /.well-known/security.txt (RFC 9116).
func (r *resolved) securityTxt() ([]byte, error) {
	sec := &r.s.Contacts.Security
	var b strings.Builder
	fmt.Fprintf(&b, "# Security contact of %s (RFC 9116)\n", oneLine(r.name))
	for _, c := range r.securityContacts() {
		fmt.Fprintf(&b, "Contact: %s\n", c)
	}
	// RFC 9116 §2.5.5: Expires is required, in RFC 3339 format, and should
	// stay under a year away; it is recomputed at every generation.
	expires := r.now.Add(time.Duration(sec.ExpiresDays) * 24 * time.Hour)
	fmt.Fprintf(&b, "Expires: %s\n", expires.Format(time.RFC3339))
	field := func(name, value string) {
		if value != "" {
			fmt.Fprintf(&b, "%s: %s\n", name, value)
		}
	}
	field("Encryption", sec.Encryption)
	field("Acknowledgments", sec.Acknowledgments)
	field("Policy", sec.Policy)
	langs := sec.PreferredLanguages
	if len(langs) == 0 && r.s.Info.Language != "" {
		langs = []string{r.s.Info.Language}
	}
	field("Preferred-Languages", strings.Join(langs, ", "))
	// RFC 9116 §2.5.2: Canonical names the URI the file is served at.
	field("Canonical", r.origin+PathSecurityTxt)
	return []byte(b.String()), nil
}
