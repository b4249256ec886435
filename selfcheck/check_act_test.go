package selfcheck

import (
	"net/http"
	"testing"
)

// formPage is a bare site whose home page holds the given body.
func formPage(body string) func(t testing.TB) http.Handler {
	return bare(replace("/", htmlDoc(`<!doctype html><html lang="en"><body>`+body+`</body></html>`)))
}

const (
	goodForm     = `<form toolname="search_catalog" tooldescription="Search the catalogue by keyword."><label for="q">Q</label><input id="q" name="q" toolparamdescription="Words."></form>`
	plainForm    = `<form action="/login"><input name="user"><input type="password" name="pw"></form>`
	hyphenForm   = `<form tool-name="search" tool-description="Search."><input name="q"></form>`
	nameOnlyForm = `<form toolname="search"><input name="q"></form>`
)

func TestCheckWebActionsDeclared(t *testing.T) {
	runVerdictCases(t, "web_actions_declared", []verdictCase{
		{name: "annotated form", site: formPage(goodForm), verdict: Pass},
		{name: "registerTool script", site: formPage(plainForm + `<script>document.modelContext.registerTool({name:"login"})</script>`), verdict: Pass},
		{name: "toolname without description", site: formPage(nameOnlyForm), verdict: Partial, fraction: 0.5},
		{name: "hyphenated only", site: formPage(hyphenForm), verdict: Partial, fraction: 0.5},
		{name: "navigator.modelContext only", site: formPage(plainForm + `<script>navigator.modelContext.provideContext({})</script>`), verdict: Partial, fraction: 0.5},
		{name: "unannotated form", site: formPage(plainForm), verdict: Fail},
		{name: "no form", site: bare(), verdict: NotApplicable},
		{name: "hidden form only", site: formPage(`<div hidden>` + plainForm + `</div><template>` + plainForm + `</template>`), verdict: NotApplicable},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func TestCheckToolFormQuality(t *testing.T) {
	runVerdictCases(t, "tool_form_quality", []verdictCase{
		{name: "well described", site: formPage(goodForm), verdict: Pass},
		{name: "labels wrap fields", site: formPage(`<form toolname="a_b" tooldescription="Ten chars or more."><label>Q <input name="q" toolparamdescription="x"></label></form>`), verdict: Pass},
		{name: "short description, no labels", site: formPage(nameOnlyForm), verdict: Partial, fraction: 0.25},
		{name: "camelCase name, short description", site: formPage(`<form toolname="searchIt" tooldescription="Find."><label for="q">Q</label><input id="q" name="q" toolparamdescription="x"></form>`), verdict: Partial, fraction: 0.5},
		{name: "hyphenated form meets nothing", site: formPage(hyphenForm), verdict: Fail},
		{name: "no annotated form", site: formPage(plainForm), verdict: NotApplicable},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func TestCheckSurfaceCoverage(t *testing.T) {
	runVerdictCases(t, "surface_coverage", []verdictCase{
		{name: "one of two", site: formPage(goodForm + plainForm), verdict: Pass},
		{name: "one of four", site: formPage(goodForm + plainForm + plainForm + `<input type="search" name="s">`), verdict: Partial, fraction: 0.5},
		{name: "hidden surfaces not counted", site: formPage(goodForm + `<div inert>` + plainForm + `</div><div style="display: none">` + plainForm + `</div>`), verdict: Pass},
		{name: "none annotated", site: formPage(plainForm + `<div role="search"></div>`), verdict: Fail},
		{name: "no surface", site: bare(), verdict: NotApplicable},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func TestCheckToolsPermissionsPolicy(t *testing.T) {
	policy := func(v string) func(t testing.TB) http.Handler {
		return bare(replace("/", &doc{ctype: "text/html", header: http.Header{"Permissions-Policy": {v}}, body: "<html></html>"}))
	}
	runVerdictCases(t, "tools_permissions_policy", []verdictCase{
		{name: "no policy: default self (rule 7)", site: bare(), verdict: Pass},
		{name: "other features only", site: policy(`camera=(), geolocation=(self "https://maps.test")`), verdict: Pass},
		{name: "tools self", site: policy(`camera=(), tools=(self)`), verdict: Pass},
		{name: "tools star", site: policy(`tools=*`), verdict: Pass},
		{name: "tools disabled", site: policy(`tools=()`), verdict: Fail},
		{name: "disabled on one route of two", site: ready(func(s *testSite) { s.edit("/pricing", func(d *doc) { d.header.Set("Permissions-Policy", "tools=()") }) }), verdict: Partial, fraction: 0.5},
		{name: "tools for another origin only", site: policy(`tools=("https://other.test")`), verdict: Fail},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}
