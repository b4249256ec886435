package convert

import (
	"strings"
	"testing"
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
			name:    "a menu a button opens still goes with its navigation",
			html:    `<nav><button aria-expanded="false" aria-controls="menu">Menu</button><ul id="menu" hidden><li><a href="/a">Shop</a></li></ul></nav><p>The page's own text stays.</p>`,
			want:    []string{"own text"},
			notWant: []string{"Shop"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := mainBody(t, tc.html)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in\n%s", w, got)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(got, w) {
					t.Errorf("kept %q in\n%s", w, got)
				}
			}
		})
	}
}

// TestRevealHiddenPage checks that a page hidden whole until its scripts
// run (an inline display:none or the hidden attribute around nearly all
// of the body's text) is converted, and that a hidden element holding
// less of the text stays hidden.
func TestRevealHiddenPage(t *testing.T) {
	page := `<h1>Collectible art</h1><p>Paintings, prints and sculpture from independent sellers, with new listings every day.</p>` +
		`<h2>Shop by category</h2><p>Original paintings, limited prints, bronze sculpture and folk art from around the world.</p>`
	for _, tc := range []struct {
		name          string
		body          string
		want, notWant []string
	}{
		{
			name: "a page hidden by an inline style until its scripts run",
			body: `<p>Your cart is empty.</p><div id="app" style="display:none">` + page + `</div>`,
			want: []string{"# Collectible art", "bronze sculpture"},
		},
		{
			name: "a page hidden by the attribute",
			body: `<p>Loading</p><div hidden>` + page + `</div>`,
			want: []string{"bronze sculpture"},
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
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in\n%s", w, got)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(got, w) {
					t.Errorf("kept %q in\n%s", w, got)
				}
			}
		})
	}
}
