package traffic

import (
	"hash/maphash"
	"strings"
	"sync/atomic"

	"github.com/agentready/caddy-agentready/traffic/agents"
)

// Class is the kind of client a request came from.
type Class uint8

// The classes.
const (
	// ClassUnknown is a client with no recognisable product (an empty or
	// unusual User-Agent).
	ClassUnknown Class = iota
	// ClassBrowser is an ordinary browser.
	ClassBrowser
	// ClassAgent is a known AI crawler, fetcher or agent of the data file
	// (or of the site's extra_agents).
	ClassAgent
	// ClassBot is a self-declared bot, crawler or spider the data file does
	// not know.
	ClassBot
	// ClassTool is a generic HTTP library or command-line client.
	ClassTool
	// ClassHeadless is an automated (headless) browser.
	ClassHeadless
)

var classNames = [...]string{"unknown", "browser", "agent", "bot", "tool", "headless"}

// String is the class's name, as used in labels and JSON.
func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "unknown"
}

// OtherLabel is the label value of every client that is not a built-in
// agent, a built-in generic client or a browser.
const OtherLabel = "other"

// A Classification is what a request's User-Agent (and Signature-Agent)
// say the client is: a claim, until verified. It is a small value; the
// pointers are to shared, read-only table entries.
type Classification struct {
	// Class is the kind of client.
	Class Class
	// Agent is the agent claimed, for ClassAgent.
	Agent *agents.Agent
	// Client is the generic client, for ClassTool and ClassHeadless.
	Client *agents.Client
}

// Name is the agent's or client's name, or the class name ("browser",
// "bot", "unknown"). Site-defined agents keep their own token here.
func (c Classification) Name() string {
	switch {
	case c.Agent != nil:
		return c.Agent.Name
	case c.Client != nil:
		return c.Client.Name
	case c.Class == ClassBrowser:
		return "browser"
	}
	return OtherLabel
}

// Purpose is the agent's purpose (training, search, user, agent), or, for
// any other client, its class name (browser, bot, tool, headless, unknown).
// The set of values is fixed: it is safe as a metrics label.
func (c Classification) Purpose() string {
	if c.Agent != nil {
		return string(c.Agent.Purpose)
	}
	return c.Class.String()
}

// Label is the bounded metrics label value for the client: the name of a
// built-in agent or client, "browser", or "other" for everything else
// (unknown bots, site-defined agents, unknown clients). The label set is the
// data file's names plus those two.
func (c Classification) Label() string {
	switch {
	case c.Agent != nil && c.Agent.Builtin():
		return c.Agent.Name
	case c.Client != nil:
		return c.Client.Name
	case c.Class == ClassBrowser:
		return "browser"
	}
	return OtherLabel
}

// Labels returns every value Label can return, for pre-registering metrics.
func Labels() []string {
	out := []string{"browser", OtherLabel}
	for _, a := range agents.All() {
		out = append(out, a.Name)
	}
	for _, c := range agents.Clients() {
		out = append(out, c.Name)
	}
	return out
}

// maxUA bounds the bytes of a User-Agent that are looked at.
const maxUA = 1024

// pattern is one lower-cased product token and what it identifies: an
// agent, a client, or (neither) a generic bot marker that needs no token
// end ("http:").
type pattern struct {
	lower  string
	agent  *agents.Agent
	client *agents.Client
}

// A Classifier recognises clients by their User-Agent. It is immutable
// after NewClassifier and safe for concurrent use. Classify does not
// allocate.
type Classifier struct {
	// first holds the patterns by the lower-cased first byte of their
	// token, longest first.
	first [256][]pattern
	// pairs has bit (a<<8|b) set when a pattern begins with the
	// lower-cased bytes a, b: most tokens of a browser's User-Agent are
	// rejected with one lookup.
	pairs [1 << 16 / 64]uint64
	// signed maps a Signature-Agent value to its agent.
	signed map[string]*agents.Agent

	// The cache of recent answers (see Classify): each slot holds a tag
	// of the User-Agent's hash and the answer encoded as its class and the
	// index of its agent or client in list or clients.
	seed    maphash.Seed
	cache   [cacheSlots]atomic.Uint64
	list    []*agents.Agent
	index   map[*agents.Agent]int
	clients []*agents.Client
	cindex  map[*agents.Client]int
}

// cacheSlots is the number of remembered User-Agents (a power of two).
const cacheSlots = 4096

// Byte tables for the scan.
var (
	alnumTab [256]bool
	lowerTab [256]byte
)

func init() {
	for i := range 256 {
		b := byte(i)
		alnumTab[i] = b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
		lowerTab[i] = b
		if b >= 'A' && b <= 'Z' {
			lowerTab[i] = b + 'a' - 'A'
		}
	}
}

// Default is the classifier of the data file alone.
var Default = NewClassifier()

// Classify classifies ua with Default.
func Classify(ua string) Classification { return Default.Classify(ua) }

// NewClassifier builds a classifier of the data file's agents and clients
// plus extra, the site's own agents (agents.FromTokens of its
// policy.extra_agents). An extra agent whose token the data file already
// has is ignored: the built-in entry is used.
func NewClassifier(extra ...*agents.Agent) *Classifier {
	c := &Classifier{signed: map[string]*agents.Agent{}, seed: maphash.MakeSeed(),
		index: map[*agents.Agent]int{}, cindex: map[*agents.Client]int{}}
	known := map[string]bool{}
	add := func(token string, a *agents.Agent, cl *agents.Client) {
		l := strings.ToLower(token)
		if l == "" || known[l] {
			return
		}
		known[l] = true
		b := l[0]
		if len(l) >= 2 {
			k := uint(b)<<8 | uint(l[1])
			c.pairs[k/64] |= 1 << (k % 64)
		}
		ps := append(c.first[b], pattern{lower: l, agent: a, client: cl})
		// Longest first, so that a token is never shadowed by its prefix.
		for i := len(ps) - 1; i > 0 && len(ps[i].lower) > len(ps[i-1].lower); i-- {
			ps[i], ps[i-1] = ps[i-1], ps[i]
		}
		c.first[b] = ps
	}
	builtins := agents.All()
	for _, a := range append(builtins, extra...) {
		if _, ok := c.index[a]; !ok {
			c.index[a] = len(c.list)
			c.list = append(c.list, a)
		}
		for _, t := range a.UA {
			add(t, a, nil)
		}
		if a.SignatureAgent != "" {
			c.signed[strings.ToLower(a.SignatureAgent)] = a
		}
	}
	for _, cl := range agents.Clients() {
		c.cindex[cl] = len(c.clients)
		c.clients = append(c.clients, cl)
		add(cl.Name, nil, cl)
	}
	add("https:", nil, nil)
	add("http:", nil, nil)
	return c
}

// ClassifySigned classifies a request by its Signature-Agent header value
// (RFC 9421 HTTP Message Signatures as Web Bot Auth uses them; quotes are
// ignored) and, when that names no known agent, by its User-Agent. The
// signature itself is not checked: the result is a claim like any other.
func (c *Classifier) ClassifySigned(ua, signatureAgent string) Classification {
	if signatureAgent != "" {
		s := strings.TrimSpace(signatureAgent)
		s = strings.TrimSuffix(strings.TrimPrefix(s, `"`), `"`)
		s = strings.TrimSuffix(s, "/")
		for k, a := range c.signed {
			if strings.EqualFold(k, s) {
				return Classification{Class: ClassAgent, Agent: a}
			}
		}
	}
	return c.Classify(ua)
}

// Classify classifies a User-Agent header value. It looks at product
// tokens on token boundaries (ASCII case ignored): a known agent wins over
// a generic client, which wins over the generic bot markers (a token ending
// in "bot", "crawler" or "spider", or an http(s): URL), which win over a
// "Mozilla/" browser. It does not allocate, and looks at most at the first
// 1024 bytes.
//
// The answers for the last 4096 User-Agents (by slot) are remembered by a
// 64-bit hash of the header: a site sees the same few browsers' and
// crawlers' strings again and again, and a remembered one costs a hash
// instead of a scan (Chrome's: 210 instructions instead of 3,530).
// Two headers are taken for one only when they share the slot and 40 bits
// of their hash (a chance of 2⁻⁴⁰ per lookup); nothing but the hash is
// stored.
func (c *Classifier) Classify(ua string) Classification {
	if len(ua) > maxUA {
		ua = ua[:maxUA]
	}
	h := maphash.String(c.seed, ua)
	slot := &c.cache[h&(cacheSlots-1)]
	tag := h &^ (1<<24 - 1)
	if v := slot.Load(); v&^(1<<24-1) == tag && v&cacheValid != 0 {
		if cl, ok := c.decode(v); ok {
			return cl
		}
	}
	cl := c.classify(ua)
	if v, ok := c.encode(cl); ok {
		slot.Store(tag | v)
	}
	return cl
}

// cacheValid marks a filled cache slot; bits 0–3 hold the class, 4–19 the
// index of the agent (plus one) or client (plus one).
const cacheValid = 1 << 23

// encode packs a classification into the low 24 bits of a cache slot.
func (c *Classifier) encode(cl Classification) (uint64, bool) {
	v := uint64(cl.Class) | cacheValid
	switch {
	case cl.Agent != nil:
		i, ok := c.index[cl.Agent]
		if !ok || i+1 >= 1<<15 {
			return 0, false
		}
		v |= uint64(i+1) << 4
	case cl.Client != nil:
		i, ok := c.cindex[cl.Client]
		if !ok || i+1 >= 1<<15 {
			return 0, false
		}
		v |= uint64(i+1)<<4 | 1<<20
	}
	return v, true
}

// decode unpacks a cache slot.
func (c *Classifier) decode(v uint64) (Classification, bool) {
	cl := Classification{Class: Class(v & 15)}
	i := int(v>>4&(1<<15-1)) - 1
	switch {
	case i < 0:
	case v&(1<<20) != 0 && i < len(c.clients):
		cl.Client = c.clients[i]
	case v&(1<<20) == 0 && i < len(c.list):
		cl.Agent = c.list[i]
	default:
		return Classification{}, false
	}
	return cl, true
}

// classify is Classify without the cache.
func (c *Classifier) classify(ua string) Classification {
	var client *agents.Client
	bot, join := false, false
	n := len(ua)
	for i := 0; i < n; {
		b := ua[i]
		if !alnumTab[b] {
			join = b == '-' || b == '_'
			i++
			continue
		}
		// A run of letters and digits starts at i: a token starts here
		// unless the run continues a hyphenated or underscored word.
		if !join && i+1 < n {
			l := lowerTab[b]
			if k := uint(l)<<8 | uint(lowerTab[ua[i+1]]); c.pairs[k/64]&(1<<(k%64)) != 0 {
				for _, p := range c.first[l] {
					end := i + len(p.lower)
					if !hasPrefixFold(ua[i:], p.lower) {
						continue
					}
					if p.agent == nil && p.client == nil {
						bot = true // an http(s): URL
						break
					}
					if end < n && alnumTab[ua[end]] {
						continue
					}
					if p.agent != nil {
						return Classification{Class: ClassAgent, Agent: p.agent}
					}
					if client == nil {
						client = p.client
					}
					break
				}
			}
		}
		for i++; i < n && alnumTab[ua[i]]; i++ {
		}
		if botSuffix(ua[:i]) {
			bot = true
		}
		join = false
	}
	switch {
	case client != nil && client.Kind == agents.Headless:
		return Classification{Class: ClassHeadless, Client: client}
	case client != nil:
		return Classification{Class: ClassTool, Client: client}
	case bot:
		return Classification{Class: ClassBot}
	case strings.HasPrefix(ua, "Mozilla/"):
		return Classification{Class: ClassBrowser}
	}
	return Classification{Class: ClassUnknown}
}

// botSuffix reports whether s ends in a token ending "bot", "crawler" or
// "spider" (ASCII case ignored).
func botSuffix(s string) bool {
	switch lowerTab[s[len(s)-1]] {
	case 't':
		return hasSuffixFold(s, "bot")
	case 'r':
		return hasSuffixFold(s, "crawler") || hasSuffixFold(s, "spider")
	}
	return false
}

// hasPrefixFold reports whether s begins with the lower-case ASCII prefix,
// ASCII case ignored.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if lowerTab[s[i]] != prefix[i] {
			return false
		}
	}
	return true
}

// hasSuffixFold reports whether s ends with the lower-case ASCII suffix,
// ASCII case ignored.
func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && hasPrefixFold(s[len(s)-len(suffix):], suffix)
}
