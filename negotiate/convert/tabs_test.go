package convert

import (
	"testing"
)

// TestHiddenTabPanels checks that the panels of a tab group hidden until
// their tab is chosen stay (a quickstart's steps for each programming
// language, a product's specifications beside its description), however
// they are hidden, while other hidden elements still go.
func TestHiddenTabPanels(t *testing.T) {
	tabs := func(hide string) string {
		return `<div role="tablist"><button role="tab" aria-selected="true">Python</button><button role="tab">Go</button></div>` +
			`<div role="tabpanel"><p>Install the package with pip, then run the script.</p></div>` +
			`<div role="tabpanel" ` + hide + `><p>Install the module with go get, then run the program.</p></div>`
	}
	for _, tc := range []struct {
		name          string
		html          string
		want, notWant []string
	}{
		{
			name: "a panel hidden by the attribute stays",
			html: tabs("hidden"),
			want: []string{"with pip", "with go get"},
		},
		{
			name: "a panel hidden by an inline style stays",
			html: tabs(`style="display:none"`),
			want: []string{"with pip", "with go get"},
		},
		{
			name: "a panel hidden from screen readers until chosen stays",
			html: tabs(`aria-hidden="true"`),
			want: []string{"with pip", "with go get"},
		},
		{
			name:    "a hidden element that is not a panel still goes",
			html:    `<p>The visible paragraph of the page.</p><div hidden><p>A modal's text, never shown.</p></div><div style="display: none"><p>Another one.</p></div>`,
			want:    []string{"visible paragraph"},
			notWant: []string{"modal", "Another"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := mainBody(t, tc.html)
			checkHolds(t, got, tc.want, tc.notWant)
		})
	}
}
