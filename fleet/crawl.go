package fleet

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/discover"
)

// Roles of an instance in a crawl.
const (
	// RoleLeader: this instance holds the crawl lock and crawls the site.
	RoleLeader = "leader"
	// RoleFollower: this instance loaded the snapshot another wrote.
	RoleFollower = "follower"
	// RoleAlone: the storage failed; this instance crawled for itself.
	RoleAlone = "alone"
)

// snapshotVersion is the version of the snapshot's encoding.
const snapshotVersion = 1

// maxSnapshotBytes bounds the snapshot read back (compressed and not).
const maxSnapshotBytes = 1 << 30

// CrawlStatus is the last crawl of the site as this instance knows it.
type CrawlStatus struct {
	// Role is this instance's part in the last refresh: "leader",
	// "follower" or "alone".
	Role string `json:"role"`
	// Leader is the instance whose crawl the index holds.
	Leader string `json:"leader"`
	// At is when that crawl ended.
	At time.Time `json:"at,omitzero"`
	// Pages is how many pages it fetched.
	Pages int `json:"pages"`
}

// snapshot is one crawl of the site, as the leader stores it: what
// discovery found and every page it fetched, enough for another instance
// to build the same index without asking the origin.
type snapshot struct {
	Version int
	At      time.Time
	Leader  string
	URLs    []string
	Result  *discover.Result
	Pages   map[string]connect.Page
}

// Holder is what the crawl lock's holder writes beside the lock, for the
// status and for tests that stop it.
type Holder struct {
	Instance string    `json:"instance"`
	PID      int       `json:"pid"`
	At       time.Time `json:"at"`
}

// CrawlConfig configures a Crawl.
type CrawlConfig struct {
	// Fresh is the age under which a snapshot is loaded rather than the
	// site crawled again: a little under the index's refresh interval, so
	// that one crawl serves the fleet for each refresh. Required.
	Fresh time.Duration
	// Result returns the discovery result of the crawl this instance just
	// ran, to share with the fleet. Default: none shared.
	Result func() *discover.Result
	// Adopt receives the discovery result of another instance's crawl, so
	// that what else lists the pages (the generated sitemap, llms.txt,
	// llms-full.txt) lists the same ones. Default: none.
	Adopt func(*discover.Result)
}

// Crawl is a connect.Source shared by the fleet: the first instance to
// take the crawl lock when no fresh snapshot exists crawls the site
// through inner and stores the snapshot, holding the lock until its
// refresh ends; the others, waiting on the lock, load that snapshot and
// answer Fetch from it. It relies on connect calling RefreshEnded after
// the fetches of each refresh that Pages began.
type Crawl struct {
	f     *Fleet
	inner connect.Source
	cfg   CrawlConfig

	mu     sync.Mutex
	role   string
	leader string
	urls   []string
	pages  map[string]connect.Page // follower: the snapshot's; leader: fetched this refresh
	prev   map[string]connect.Page // leader: the last snapshot's, for pages that answer 304
	locked bool
}

// Crawl wraps inner, the instance's own source of the site's pages.
func (f *Fleet) Crawl(inner connect.Source, cfg CrawlConfig) *Crawl {
	return &Crawl{f: f, inner: inner, cfg: cfg}
}

func (c *Crawl) lockName() string { return c.f.key("crawl") }

// Pages implements connect.Source.
func (c *Crawl) Pages(ctx context.Context) ([]string, error) {
	st := c.f.cfg.Storage
	if err := c.f.result(ctx, "lock", st.Lock(ctx, c.lockName())); err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		c.setRole(RoleAlone, c.f.cfg.Instance, nil)
		c.f.setCrawl(CrawlStatus{Role: RoleAlone, Leader: c.f.cfg.Instance})
		return c.inner.Pages(ctx)
	}
	snap, err := c.load(ctx)
	if err == nil && c.f.cfg.Now().Sub(snap.At) < c.cfg.Fresh {
		c.unlock()
		c.setRole(RoleFollower, snap.Leader, snap.Pages)
		c.mu.Lock()
		c.urls = snap.URLs
		c.mu.Unlock()
		c.f.setCrawl(CrawlStatus{Role: RoleFollower, Leader: snap.Leader, At: snap.At, Pages: len(snap.Pages)})
		if c.cfg.Adopt != nil && snap.Result != nil {
			c.cfg.Adopt(snap.Result)
		}
		return snap.URLs, nil
	}
	h, _ := json.Marshal(Holder{Instance: c.f.cfg.Instance, PID: os.Getpid(), At: c.f.cfg.Now()})
	_ = c.f.result(ctx, "store", st.Store(ctx, c.f.key("crawl.holder"), h))
	urls, err := c.inner.Pages(ctx)
	if err != nil {
		c.unlock()
		return nil, err
	}
	var prev map[string]connect.Page
	if snap != nil {
		prev = snap.Pages
	}
	c.mu.Lock()
	c.role, c.leader, c.urls, c.pages, c.prev, c.locked = RoleLeader, c.f.cfg.Instance, urls, map[string]connect.Page{}, prev, true
	c.mu.Unlock()
	return urls, nil
}

func (c *Crawl) setRole(role, leader string, pages map[string]connect.Page) {
	c.mu.Lock()
	c.role, c.leader, c.pages, c.prev = role, leader, pages, nil
	c.mu.Unlock()
}

// Fetch implements connect.Source.
func (c *Crawl) Fetch(ctx context.Context, pageURL string, prev connect.Validators) (*connect.Page, error) {
	c.mu.Lock()
	role, leader := c.role, c.leader
	p, inSnap := c.pages[pageURL]
	old, hadOld := c.prev[pageURL]
	c.mu.Unlock()
	switch role {
	case RoleFollower:
		if !inSnap {
			return nil, fmt.Errorf("fleet: %s is not in the crawl of instance %s", pageURL, leader)
		}
		if prev != (connect.Validators{}) && prev == p.Validators {
			return nil, connect.ErrNotModified
		}
		return &p, nil
	case RoleLeader:
		page, err := c.inner.Fetch(ctx, pageURL, prev)
		if errors.Is(err, connect.ErrNotModified) {
			if hadOld {
				c.record(pageURL, old)
				return nil, err
			}
			// The index holds a copy the fleet has not: fetch it whole
			// so the others can load it.
			page, err = c.inner.Fetch(ctx, pageURL, connect.Validators{})
		}
		if err == nil {
			c.record(pageURL, *page)
		}
		return page, err
	default:
		return c.inner.Fetch(ctx, pageURL, prev)
	}
}

func (c *Crawl) record(pageURL string, p connect.Page) {
	c.mu.Lock()
	if c.role == RoleLeader {
		c.pages[pageURL] = p
	}
	c.mu.Unlock()
}

// RefreshEnded implements connect.RefreshEnder: the leader stores the
// snapshot of a refresh that succeeded and lets go of the crawl lock; a
// follower lets go of the snapshot it loaded (the index holds the pages).
func (c *Crawl) RefreshEnded(err error) {
	c.mu.Lock()
	if c.role != RoleLeader || !c.locked {
		if c.role == RoleFollower {
			c.role, c.pages = "", nil
		}
		c.mu.Unlock()
		return
	}
	snap := &snapshot{Version: snapshotVersion, At: c.f.cfg.Now(), Leader: c.f.cfg.Instance, URLs: c.urls, Pages: c.pages}
	// A fetch that outlives its refresh (connect abandons one past its
	// deadline) goes to the source alone from here: the snapshot's map is
	// no longer written.
	c.role, c.pages, c.prev, c.locked = "", nil, nil, false
	c.mu.Unlock()
	if c.cfg.Result != nil {
		snap.Result = shareable(c.cfg.Result())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err == nil {
		if serr := c.store(ctx, snap); serr == nil {
			c.f.setCrawl(CrawlStatus{Role: RoleLeader, Leader: snap.Leader, At: snap.At, Pages: len(snap.Pages)})
		}
	}
	_ = c.f.result(ctx, "unlock", c.f.cfg.Storage.Unlock(ctx, c.lockName()))
}

func (c *Crawl) unlock() { c.f.unlock(c.lockName()) }

// shareable is res without the validators of its pages: an instance that
// adopts it and crawls next must fetch each page whole, since the links a
// 304 would reuse are not in the snapshot.
func shareable(res *discover.Result) *discover.Result {
	if res == nil {
		return nil
	}
	out := *res
	out.Pages = make([]discover.Page, len(res.Pages))
	for i, p := range res.Pages {
		out.Pages[i] = discover.Page{URL: p.URL, Title: p.Title, Description: p.Description, Lastmod: p.Lastmod,
			Depth: p.Depth, Found: p.Found}
	}
	return &out
}

func (c *Crawl) store(ctx context.Context, snap *snapshot) error {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if err := gob.NewEncoder(zw).Encode(snap); err != nil {
		return fmt.Errorf("fleet: encoding the crawl: %w", err)
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return c.f.result(ctx, "store", c.f.cfg.Storage.Store(ctx, c.f.key("crawl.snapshot"), buf.Bytes()))
}

// load reads the last snapshot; a missing or unreadable one is an error.
func (c *Crawl) load(ctx context.Context) (*snapshot, error) {
	data, err := c.f.cfg.Storage.Load(ctx, c.f.key("crawl.snapshot"))
	if err = c.f.result(ctx, "load", err); err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(io.LimitReader(bytes.NewReader(data), maxSnapshotBytes))
	if err != nil {
		return nil, err
	}
	var snap snapshot
	if err := gob.NewDecoder(io.LimitReader(zr, maxSnapshotBytes)).Decode(&snap); err != nil {
		return nil, fmt.Errorf("fleet: reading the crawl: %w", err)
	}
	if snap.Version != snapshotVersion {
		return nil, fmt.Errorf("fleet: crawl snapshot version %d, want %d", snap.Version, snapshotVersion)
	}
	return &snap, nil
}

// LoadHolder reads who took the crawl lock last.
func (f *Fleet) LoadHolder(ctx context.Context) (Holder, error) {
	var h Holder
	data, err := f.cfg.Storage.Load(ctx, f.key("crawl.holder"))
	if err == nil {
		err = json.Unmarshal(data, &h)
	}
	return h, err
}

func (f *Fleet) setCrawl(cs CrawlStatus) {
	f.mu.Lock()
	f.crawl = &cs
	f.mu.Unlock()
}

// Interface guards
var (
	_ connect.Source       = (*Crawl)(nil)
	_ connect.RefreshEnder = (*Crawl)(nil)
)
