package htmlrewrite

import (
	"bytes"
	"fmt"
	"strings"
	"sync"

	"github.com/andybalholm/cascadia"
)

// matches reports whether a start tag named name with attrs satisfies m.
// The zero TagMatch matches nothing.
func (m TagMatch) matches(name []byte, attrs []attr) bool {
	if m.Tag == "" && len(m.Attrs) == 0 {
		return false
	}
	if m.Tag != "" && !equalFold(name, m.Tag) {
		return false
	}
	for k, want := range m.Attrs {
		if !attrMatches(attrs, strings.ToLower(k), want) {
			return false
		}
	}
	return true
}

func attrMatches(attrs []attr, key, want string) bool {
	for _, a := range attrs {
		if string(a.key) != key {
			continue
		}
		switch {
		case want == "*":
			return true
		case key == "rel":
			// Every token of want is one of the value's (space-separated,
			// ASCII case-insensitive).
			for w := range strings.FieldsSeq(want) {
				if !hasSpaceToken(a.val, w) {
					return false
				}
			}
			return true
		default:
			return equalFold(bytes.TrimSpace(a.val), strings.TrimSpace(want))
		}
	}
	return false
}

// hasSpaceToken reports whether the space-separated list holds tok,
// compared case-insensitively.
func hasSpaceToken(list []byte, tok string) bool {
	for t := range bytes.FieldsSeq(list) {
		if equalFold(t, tok) {
			return true
		}
	}
	return false
}

// formMatcher is a FormAnnotation with its compiled selector; match is nil
// when the selector does not compile (it then never matches).
type formMatcher struct {
	ann   FormAnnotation
	match cascadia.Matcher
}

func compileForms(forms []FormAnnotation) []formMatcher {
	if len(forms) == 0 {
		return nil
	}
	out := make([]formMatcher, len(forms))
	for i, f := range forms {
		sel, _ := compileSelector(f.Selector)
		out[i] = formMatcher{ann: f, match: sel}
	}
	return out
}

// selectorCache keeps compiled selectors: the same few come from the
// configuration on every request. It stops growing at maxCachedSelectors.
var selectorCache sync.Map // string -> selectorEntry

type selectorEntry struct {
	sel cascadia.Matcher
	err error
}

const maxCachedSelectors = 1024

var selectorCount struct {
	sync.Mutex
	n int
}

// compileSelector compiles a CSS selector group, from the cache when it can.
func compileSelector(s string) (cascadia.Matcher, error) {
	if e, ok := selectorCache.Load(s); ok {
		return e.(selectorEntry).sel, e.(selectorEntry).err
	}
	sel, err := cascadia.ParseGroup(s)
	e := selectorEntry{err: err}
	if err != nil {
		e.err = fmt.Errorf("compiling form selector %q: %w", s, err)
	} else {
		e.sel = sel
	}
	selectorCount.Lock()
	if selectorCount.n < maxCachedSelectors {
		if _, loaded := selectorCache.LoadOrStore(s, e); !loaded {
			selectorCount.n++
		}
	}
	selectorCount.Unlock()
	return e.sel, e.err
}

// Validate reports the first form selector that does not compile, so a
// configuration can be rejected up front instead of never matching.
func (inj *Injection) Validate() error {
	if inj == nil {
		return nil
	}
	for _, f := range inj.Forms {
		if _, err := compileSelector(f.Selector); err != nil {
			return err
		}
	}
	return nil
}
