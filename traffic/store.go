package traffic

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentready/caddy-agentready/traffic/agents"
)

// Form is the representation a request was answered with.
type Form uint8

// The forms.
const (
	// FormOther is anything else (assets, redirects to elsewhere…).
	FormOther Form = iota
	// FormHTML is an HTML page.
	FormHTML
	// FormMarkdown is the Markdown form of a page.
	FormMarkdown
	// FormDiscovery is a generated discovery document (llms.txt,
	// agents.json, robots.txt, ard.json, sitemap…).
	FormDiscovery
	// FormMCP is the MCP endpoint.
	FormMCP
	// FormAsk is the /ask endpoint.
	FormAsk
	numForms
)

var formNames = [numForms]string{"other", "html", "markdown", "discovery", "mcp", "ask"}

// String is the form's name, as used in labels and JSON.
func (f Form) String() string {
	if f < numForms {
		return formNames[f]
	}
	return "other"
}

func parseForm(s string) (Form, bool) {
	for i, n := range formNames {
		if n == s {
			return Form(i), true
		}
	}
	return 0, false
}

// Status classes: 0 holds statuses outside 100–599 (0 when unknown).
const numStatus = 6

var statusNames = [numStatus]string{"other", "1xx", "2xx", "3xx", "4xx", "5xx"}

func statusClass(code int) int {
	if code >= 100 && code <= 599 {
		return code / 100
	}
	return 0
}

func parseStatus(s string) (int, bool) {
	for i, n := range statusNames {
		if n == s {
			return i, true
		}
	}
	return 0, false
}

const numVerif = 3

// An Event is one answered request, as the glue reports it. It carries no
// client address and no query string.
type Event struct {
	// Time is when the request was answered. Default: now.
	Time time.Time
	// Client is the request's classification.
	Client Classification
	// Verification is the verifier's answer for the client.
	Verification Verification
	// Form is the representation served.
	Form Form
	// Status is the response status code.
	Status int
	// Path is the request path; a query or fragment is cut off here too.
	Path string
	// Bytes is the size of the body served.
	Bytes int64
	// Tokens is the Markdown token count served (x-markdown-tokens), for
	// FormMarkdown.
	Tokens int64
	// HTMLBytes is the size of the HTML page the Markdown was made from, for
	// FormMarkdown: the tokens saved are estimated from Tokens and the two
	// sizes, without a second tokenisation.
	HTMLBytes int64
	// Blocked is true when enforcement answered 403.
	Blocked bool
}

// TokensSaved estimates the tokens an agent did not have to read because
// it took the Markdown: the Markdown's tokens scaled by the HTML/Markdown
// size ratio, less the Markdown's tokens. Zero unless the HTML was larger.
func TokensSaved(tokens, markdownBytes, htmlBytes int64) uint64 {
	if tokens <= 0 || markdownBytes <= 0 || htmlBytes <= markdownBytes {
		return 0
	}
	return uint64(float64(tokens)*float64(htmlBytes)/float64(markdownBytes)) - uint64(tokens)
}

// StoreConfig configures a Store. Zero fields take their defaults.
type StoreConfig struct {
	// TopPages is how many pages each client row tracks (Space-Saving
	// counters). Default: 64.
	TopPages int
	// MaxRows bounds the client rows (agent and purpose pairs); clients
	// past it are counted under "other". Default: 512.
	MaxRows int
	// Now is the clock. Default: time.Now.
	Now func() time.Time
}

// cell holds the counters of one (row, form, status class, verification).
type cell struct {
	requests, bytes, tokens, saved, blocked atomic.Uint64
}

// rowKey identifies a row: the client name and its purpose.
type rowKey struct {
	name, purpose string
}

// row is the counters of one client.
type row struct {
	key      rowKey
	operator string
	label    string
	cells    [numForms][numStatus][numVerif]cell
	pages    *sketch
}

// A Store counts requests by client, purpose, form, status class and
// verification, keeps each client's top pages in a Space-Saving sketch and
// a per-minute (one day) and per-hour (30 days) series. Its memory is
// bounded by MaxRows × TopPages whatever the traffic: no client addresses,
// no query strings, no unbounded maps. Record is lock-free on its counters
// (one short lock for the client's page sketch). Safe for concurrent use;
// meant to live in a usage pool across config reloads, and to be saved to
// a file on shutdown and periodically (Save, Load).
type Store struct {
	cfg     StoreConfig
	since   atomic.Int64 // unix nanoseconds of the first count
	rows    atomic.Pointer[map[rowKey]*row]
	rowsMu  sync.Mutex
	memo    [memoSlots]atomic.Pointer[rowMemo] // see rowOf
	minutes *series
	hours   *series
}

// NewStore makes an empty store.
func NewStore(cfg StoreConfig) *Store {
	if cfg.TopPages <= 0 {
		cfg.TopPages = 64
	}
	if cfg.MaxRows <= 0 {
		cfg.MaxRows = 512
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Store{cfg: cfg, minutes: newSeries(time.Minute, minuteBuckets), hours: newSeries(time.Hour, hourBuckets)}
	s.rows.Store(&map[rowKey]*row{})
	s.since.Store(cfg.Now().UnixNano())
	return s
}

// row returns the row of a client, creating it (or, past MaxRows, the
// "other" row of its purpose).
func (s *Store) row(k rowKey, operator, label string) *row {
	if r := (*s.rows.Load())[k]; r != nil {
		return r
	}
	s.rowsMu.Lock()
	defer s.rowsMu.Unlock()
	old := *s.rows.Load()
	if r := old[k]; r != nil {
		return r
	}
	if len(old) >= s.cfg.MaxRows && k.name != OtherLabel {
		k, operator, label = rowKey{OtherLabel, k.purpose}, "", OtherLabel
		if r := old[k]; r != nil {
			return r
		}
	}
	r := &row{key: k, operator: operator, label: label, pages: newSketch(s.cfg.TopPages)}
	m := make(map[rowKey]*row, len(old)+1)
	for kk, rr := range old {
		m[kk] = rr
	}
	m[k] = r
	s.rows.Store(&m)
	return r
}

// rowMemo is the row a classification is counted in and the slot of its
// purpose (rowOf).
type rowMemo struct {
	c       Classification
	r       *row
	purpose int
}

// memoSlots is how many classifications rowOf remembers: the first ones
// seen (a site's browsers and its usual crawlers are few).
const memoSlots = 8

// rowOf returns the row of c (see row) and the slot of its purpose in the
// series. A classification's row never changes once made (rows are only
// ever added, and a client past MaxRows stays in its "other" row), so the
// answers for the first memoSlots classifications are kept, each slot
// filled once: the row's name, purpose and label, a map lookup by two
// strings and the purpose's slot are then a few comparisons.
func (s *Store) rowOf(c Classification) (*row, int) {
	free := -1
	for i := range s.memo {
		m := s.memo[i].Load()
		if m == nil {
			free = i
			break
		}
		if m.c == c {
			return m.r, m.purpose
		}
	}
	operator := ""
	if c.Agent != nil {
		operator = c.Agent.Operator
	}
	purpose := c.Purpose()
	r, p := s.row(rowKey{c.Name(), purpose}, operator, c.Label()), purposeIndex(purpose)
	if free >= 0 && (c.Agent == nil || c.Agent.Operator != agents.SiteConfigured) {
		// Slots fill in order; another request may have taken this one.
		// A site's own agents are made again on every configuration
		// load: remembered, they would hold slots no later request
		// matches.
		m := &rowMemo{c: c, r: r, purpose: p}
		for i := free; i < len(s.memo); i++ {
			if s.memo[i].CompareAndSwap(nil, m) || s.memo[i].Load().c == c {
				break
			}
		}
	}
	return r, p
}

// Record counts one answered request.
func (s *Store) Record(e Event) {
	if e.Time.IsZero() {
		e.Time = s.cfg.Now()
	} else {
		s.countedFrom(e.Time.UnixNano())
	}
	r, p := s.rowOf(e.Client)
	f := e.Form
	if f >= numForms {
		f = FormOther
	}
	v := e.Verification
	if v >= numVerif {
		v = Unverified
	}
	var saved, tokens, markdown, blocked uint64
	if f == FormMarkdown {
		markdown = 1
		if e.Tokens > 0 {
			tokens = uint64(e.Tokens)
		}
		saved = TokensSaved(e.Tokens, e.Bytes, e.HTMLBytes)
	}
	if e.Blocked {
		blocked = 1
	}
	cl := &r.cells[f][statusClass(e.Status)][v]
	cl.requests.Add(1)
	if e.Bytes > 0 {
		cl.bytes.Add(uint64(e.Bytes))
	}
	addNonZero(&cl.tokens, tokens)
	addNonZero(&cl.saved, saved)
	addNonZero(&cl.blocked, blocked)
	r.pages.add(PagePath(e.Path), 1, 0)
	s.minutes.add(e.Time, p, 1, markdown, saved, blocked)
	s.hours.add(e.Time, p, 1, markdown, saved, blocked)
}

// addNonZero adds n to c unless n is 0: most of a request's counts are
// (a browser's HTML page has no tokens, nothing saved, nothing blocked),
// and an atomic add of 0 still takes the cache line for writing.
func addNonZero(c *atomic.Uint64, n uint64) {
	if n != 0 {
		c.Add(n)
	}
}

// countedFrom moves the start of the counts back to t when an event is
// recorded with a time before it (one replayed, or from a log), so that
// Since never claims a later start than the counts have.
func (s *Store) countedFrom(t int64) {
	for {
		cur := s.since.Load()
		if t >= cur || s.since.CompareAndSwap(cur, t) {
			return
		}
	}
}
