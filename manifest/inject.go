package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"maps"
)

// injection builds the HTML head injections.
func (r *resolved) injection() (Injection, error) {
	s := r.s
	in := Injection{Canonical: on(s.Inject.Canonical), Origin: r.origin}
	if on(s.Inject.Lang) {
		in.Lang = s.Info.Language
	}
	// The identity is the owner's to state: without a site or organisation
	// name in the YAML there is none to publish, and the host name is no
	// claim of one.
	if on(s.Inject.JSONLD) && (s.Info.Name != "" || s.Info.Organization.Name != "") {
		script, err := r.jsonLD()
		if err != nil {
			return in, err
		}
		in.JSONLD = script
	}
	if on(s.Inject.ARDLink) && r.serve[PathARD] {
		// ARD v0.91 §5.1: <link rel="ard"> is the second discovery step.
		in.ARDLink = fmt.Sprintf(`<link rel="ard" type="application/json" href="%s">`, html.EscapeString(r.url(PathARD)))
	}
	if on(s.Inject.WebMCP) {
		for _, f := range s.WebMCP.Forms {
			in.Forms = append(in.Forms, FormAnnotation{Selector: f.Selector, ToolName: f.ToolName,
				ToolDescription: oneLine(f.ToolDescription), Params: maps.Clone(f.Params)})
		}
	}
	return in, nil
}

// jsonLD renders the <script type="application/ld+json"> element with the
// Organization (identity, contactPoint, logo, sameAs) and WebSite nodes.
func (r *resolved) jsonLD() (string, error) {
	s := r.s
	org := &s.Info.Organization
	orgID := r.origin + "/#organization"
	orgNode := map[string]any{
		"@type": org.Type,
		"@id":   orgID,
		"name":  orDefault(org.Name, s.Info.Name),
		"url":   orDefault(r.abs(org.URL), r.origin+"/"),
	}
	if org.LegalName != "" {
		orgNode["legalName"] = org.LegalName
	}
	if logo := r.abs(org.Logo); logo != "" {
		orgNode["logo"] = logo
	}
	if len(org.SameAs) > 0 {
		orgNode["sameAs"] = org.SameAs
	}
	if cp := r.contactPoint(); cp != nil {
		orgNode["contactPoint"] = cp
	}
	site := map[string]any{
		"@type":     "WebSite",
		"@id":       r.origin + "/#website",
		"name":      orDefault(s.Info.Name, org.Name),
		"url":       r.origin + "/",
		"publisher": map[string]string{"@id": orgID},
	}
	if s.Info.Description != "" {
		site["description"] = s.Info.Description
	}
	if s.Info.Language != "" {
		site["inLanguage"] = s.Info.Language
	}
	doc := map[string]any{"@context": "https://schema.org", "@graph": []any{orgNode, site}}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	// HTML escaping stays on: "<", ">" and "&" become \u003c… so no value
	// can close the script element.
	if err := enc.Encode(doc); err != nil {
		return "", fmt.Errorf("encoding JSON-LD: %w", err)
	}
	return `<script type="application/ld+json">` + string(bytes.TrimSpace(buf.Bytes())) + `</script>`, nil
}

// contactPoint is the schema.org ContactPoint of the human contact, nil
// without one.
func (r *resolved) contactPoint() map[string]any {
	c := &r.s.Contacts
	if c.Email == "" && c.Phone == "" && c.Page == "" {
		return nil
	}
	cp := map[string]any{"@type": "ContactPoint", "contactType": "customer support"}
	if c.Email != "" {
		cp["email"] = c.Email
	}
	if c.Phone != "" {
		cp["telephone"] = c.Phone
	}
	if c.Page != "" {
		cp["url"] = r.abs(c.Page)
	}
	if r.s.Info.Language != "" {
		cp["availableLanguage"] = r.s.Info.Language
	}
	return cp
}
