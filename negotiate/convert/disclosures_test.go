package convert

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestRevealDisclosures checks that the panels a disclosure button opens
// (aria-expanded and aria-controls: an FAQ's answers, a shop's filter
// groups) stay however they are hidden, and that the other hidden
// elements and the chrome among the panels still go.
func TestRevealDisclosures(t *testing.T) {
	faq := func(button, panel string) string {
		return `<h2>Questions</h2><h3><button ` + button + `>How long does delivery take?</button></h3>` +
			`<div id="answer-1" ` + panel + `><p>Orders ship within two working days.</p></div>`
	}
	for _, tc := range []struct {
		name          string
		html          string
		want, notWant []string
	}{
		{
			name: "an answer hidden by the attribute stays",
			html: faq(`aria-expanded="false" aria-controls="answer-1"`, `hidden`),
			want: []string{"How long", "within two working days"},
		},
		{
			name: "an answer hidden by an inline style stays",
			html: faq(`aria-expanded="false" aria-controls="answer-1"`, `style="display: none"`),
			want: []string{"within two working days"},
		},
		{
			name: "an answer hidden from screen readers until opened stays",
			html: faq(`aria-expanded="false" aria-controls="other answer-1"`, `aria-hidden="true"`),
			want: []string{"within two working days"},
		},
		{
			name: "an answer whose collapsible wrapper is hidden stays",
			html: `<h3><button aria-expanded="false" aria-controls="answer-2">What is it made of?</button></h3>` +
				`<div class="collapse" style="overflow:hidden;display:none;height:0px"><div role="region" id="answer-2"><p>Stainless steel, throughout.</p></div></div>`,
			want: []string{"Stainless steel"},
		},
		{
			name: "a widget hidden whole, its button included, still goes",
			html: `<p>The page's own text stays.</p><div style="display:none"><button aria-expanded="false" aria-controls="answer-3">Open</button>` +
				`<div id="answer-3"><p>Text of another screen size.</p></div></div>`,
			want:    []string{"own text"},
			notWant: []string{"another screen"},
		},
		{
			name: "a menu of links behind a plain disclosure button still goes",
			html: `<p>The page's own text stays.</p><button aria-expanded="false" aria-controls="account">My account</button>` +
				`<div id="account" hidden><ul><li><a href="/orders">Your orders</a></li><li><a href="/returns">Start a return</a></li><li><a href="/logout">Sign out</a></li></ul></div>`,
			want:    []string{"own text"},
			notWant: []string{"Your orders", "Sign out"},
		},
		{
			name: "an answer with a link in it stays",
			html: `<h3><button aria-expanded="false" aria-controls="answer-9">Can I return it?</button></h3>` +
				`<div id="answer-9" hidden><p>Yes, within thirty days of delivery, unused and in its box: see <a href="/returns">returns</a>.</p></div>`,
			want: []string{"within thirty days", "returns"},
		},
		{
			name: "a panel a tab names stays without a role of its own",
			html: `<ul><li><a role="tab" href="#specs" aria-controls="specs">Specifications</a></li></ul>` +
				`<div class="tab-pane" id="specs" style="display:none"><p>Weight 15.9 kg, height 39 cm.</p></div>`,
			want: []string{"Weight 15.9 kg"},
		},
		{
			name:    "a hidden element no disclosure button opens still goes",
			html:    faq(`aria-controls="answer-1"`, `hidden`) + `<div id="modal" hidden><p>Sign in to continue.</p></div>`,
			want:    []string{"How long"},
			notWant: []string{"two working days", "Sign in"},
		},
		{
			name: "a hidden wrapper with other text beside the panel stays hidden",
			html: `<p>The page's own text stays.</p><button aria-expanded="false" aria-controls="size-guide">Size guide</button>` +
				`<div id="modals" hidden><div id="size-guide"><p>Sizes run small.</p></div><div><p>Staff code STAFF50.</p></div></div>`,
			want:    []string{"own text"},
			notWant: []string{"STAFF50", "Sizes run small"},
		},
		{
			name: "a button a reader cannot reach opens nothing",
			html: `<p>The page's own text stays.</p><div class="mobile-only" hidden><button aria-expanded="false" aria-controls="drawer">Open</button></div>` +
				`<div id="drawer" hidden><p>Mobile drawer text.</p></div>`,
			want:    []string{"own text"},
			notWant: []string{"Mobile drawer"},
		},
		{
			name: "a popup's list stays hidden",
			html: `<p>The page's own text stays.</p><button aria-expanded="false" aria-haspopup="true" aria-controls="account">Account</button>` +
				`<div id="account" hidden><p>Signed in as admin.</p></div>` +
				`<input role="combobox" aria-expanded="false" aria-controls="langs"><div id="langs" hidden><p>Deutsch, Français.</p></div>` +
				`<button aria-expanded="false" aria-controls="opts"><span>Sort</span></button><div id="opts" role="listbox" hidden><p>Price, newest.</p></div>`,
			want:    []string{"own text"},
			notWant: []string{"Signed in", "Deutsch", "newest"},
		},
		{
			name:    "a menu a button opens still goes with its navigation",
			html:    `<nav><button aria-expanded="false" aria-controls="menu">Menu</button><ul id="menu" hidden><li><a href="/a">Shop</a></li></ul></nav><p>The page's own text stays.</p>`,
			want:    []string{"own text"},
			notWant: []string{"Shop"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := mainBody(t, tc.html)
			checkHolds(t, got, tc.want, tc.notWant)
		})
	}
}

// TestRevealKeepsOperatorsRules: a panel the operator's own prune rules
// match by its hiding attribute is not revealed (revealing removes the
// attribute the rule reads).
func TestRevealKeepsOperatorsRules(t *testing.T) {
	page := `<h1>Guide</h1><p>The page's own text stays, with enough words to be the article.</p>` +
		`<button aria-expanded="false" aria-controls="more">More</button><div id="more" class="premium" hidden><p>Members-only text.</p></div>`
	res, err := mustNew(t, Options{Settings: Settings{Prune: []string{".premium[hidden]"}}}).Convert([]byte(page), testURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Markdown); !strings.Contains(got, "own text") || strings.Contains(got, "Members-only") {
		t.Errorf("the operator's rule on the hidden panel was not kept:\n%s", got)
	}
}

// TestRevealBudget: on a page of thousands of controls, each opening a
// panel hundreds of levels away from its button, revealing stops when its
// budget is spent (the first panels are revealed, the last are not),
// instead of walking every panel's ancestors.
func TestRevealBudget(t *testing.T) {
	const deep, panels = 300, 2000
	var b strings.Builder
	b.WriteString(strings.Repeat("<div>", deep) + `<button aria-expanded="false" aria-controls="`)
	for i := range panels {
		fmt.Fprintf(&b, "p%d ", i)
	}
	b.WriteString(`">Open</button>` + strings.Repeat("</div>", deep) + strings.Repeat("<section>", deep))
	for i := range panels {
		fmt.Fprintf(&b, `<div id="p%d" hidden>panel %d</div>`, i, i)
	}
	b.WriteString(strings.Repeat("</section>", deep))
	doc, err := html.Parse(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	revealDisclosures(doc, nil)
	shown := map[string]bool{}
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && strings.HasPrefix(attr(n, "id"), "p") && !hiddenByMarkup(n) {
			shown[attr(n, "id")] = true
		}
	}
	if !shown["p0"] || shown[fmt.Sprintf("p%d", panels-1)] || len(shown) == panels {
		t.Errorf("%d of %d panels revealed (p0 %v, last %v): the budget did not bound the work", len(shown), panels, shown["p0"], shown[fmt.Sprintf("p%d", panels-1)])
	}
}

// TestRevealHiddenPage checks that a page hidden whole until its scripts
// run (an inline display:none or the hidden attribute around nearly all
// of the body's text) is converted, and that a hidden element holding
// less of the text stays hidden.
func TestRevealHiddenPage(t *testing.T) {
	page := `<h1>Collectible art</h1><p>Paintings, prints and sculpture from independent sellers, with new listings every day.</p>` +
		`<h2>Shop by category</h2><p>Original paintings, limited prints, bronze sculpture and folk art from around the world.</p>`
	const app = `<script src="/app.js"></script>`
	for _, tc := range []struct {
		name          string
		body          string
		want, notWant []string
	}{
		{
			name: "a page hidden by an inline style until its scripts run",
			body: `<p>Your cart is empty.</p><div id="app" style="display:none">` + page + `</div>` + app,
			want: []string{"# Collectible art", "bronze sculpture"},
		},
		{
			name: "a page hidden by the attribute",
			body: `<p>Loading</p><div hidden>` + page + `</div>` + app,
			want: []string{"bronze sculpture"},
		},
		{
			name:    "a page without scripts cannot unhide it: it stays hidden",
			body:    `<p>Loading</p><div hidden>` + page + `</div>`,
			notWant: []string{"bronze sculpture"},
		},
		{
			name: "a story its page declares not free stays hidden behind the paywall",
			body: `<script type="application/ld+json">{"@type":"NewsArticle","isAccessibleForFree":false,"hasPart":{"@type":"WebPageElement","isAccessibleForFree":"False","cssSelector":".paywall"}}</script>` +
				`<p>Subscribe to read on.</p><div class="paywall" style="display:none">` + page + `</div>` + app,
			notWant: []string{"bronze sculpture"},
		},
		{
			name:    "a hidden element holding less of the text stays hidden",
			body:    page + `<div style="display: none"><p>Sign up for our newsletter and get ten percent off.</p></div>`,
			want:    []string{"bronze sculpture"},
			notWant: []string{"newsletter"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := mustNew(t, Options{}).Convert([]byte("<body>"+tc.body+"</body>"), testURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := string(res.Markdown)
			checkHolds(t, got, tc.want, tc.notWant)
		})
	}
}

// checkHolds reports each of want missing from got and each of notWant
// found in it.
func checkHolds(t *testing.T, got string, want, notWant []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in\n%s", w, got)
		}
	}
	for _, w := range notWant {
		if strings.Contains(got, w) {
			t.Errorf("kept %q in\n%s", w, got)
		}
	}
}
