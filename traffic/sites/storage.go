package sites

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Storage keeps a site's saved counts across restarts.
type Storage interface {
	// Load reads the saved counts; an error wrapping fs.ErrNotExist when
	// none were saved.
	Load() ([]byte, error)
	// Save writes the counts, whole or not at all.
	Save(data []byte) error
	// String says where, for the log.
	String() string
}

// File is a Storage in a file.
type File string

// FileIn is the file of site key's counts under a data directory:
// <dir>/agent_ready/traffic-<hash of key>.json.
func FileIn(dir, key string) File {
	sum := sha256.Sum256([]byte(key))
	return File(filepath.Join(dir, "agent_ready", "traffic-"+hex.EncodeToString(sum[:8])+".json"))
}

func (f File) String() string { return string(f) }

// Load implements Storage.
func (f File) Load() ([]byte, error) { return os.ReadFile(string(f)) }

// Save implements Storage: a temporary file renamed over f.
func (f File) Save(data []byte) error {
	dir := filepath.Dir(string(f))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("saving traffic counts: %v", err)
	}
	tmp, err := os.CreateTemp(dir, ".traffic-*.tmp")
	if err != nil {
		return fmt.Errorf("saving traffic counts: %v", err)
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), string(f))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("saving traffic counts to %s: %v", f, err)
	}
	return nil
}

// Registry holds the sites by key, each counting the configs that use it
// (as Caddy's usage pool does): the last to let go destructs it.
type Registry struct {
	mu    sync.Mutex
	sites map[string]*entry
}

type entry struct {
	site *Site
	refs int
}

// Use is the site named key, made by create when no config uses it yet;
// each call is one more user, for Release.
func (r *Registry) Use(key string, create func() *Site) *Site {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sites == nil {
		r.sites = map[string]*entry{}
	}
	e := r.sites[key]
	if e == nil {
		e = &entry{site: create()}
		r.sites[key] = e
	}
	e.refs++
	return e.site
}

// Release lets go of one use of the site named key; the last destructs it
// (its counts saved).
func (r *Registry) Release(key string) error {
	r.mu.Lock()
	e := r.sites[key]
	if e == nil {
		r.mu.Unlock()
		return fmt.Errorf("traffic: no site %q in use", key)
	}
	e.refs--
	if e.refs > 0 {
		r.mu.Unlock()
		return nil
	}
	delete(r.sites, key)
	r.mu.Unlock()
	return e.site.Destruct()
}

// List is the sites in use, sorted by key.
func (r *Registry) List() []*Site {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*Site, 0, len(r.sites))
	for _, e := range r.sites {
		out = append(out, e.site)
	}
	slices.SortFunc(out, func(a, b *Site) int { return strings.Compare(a.key, b.key) })
	return out
}

// Pick is the site named key ("" for the first) and the keys of the
// others, for the traffic view.
func (r *Registry) Pick(key string) (*Site, []string, error) {
	all := r.List()
	i := 0
	if key != "" {
		i = slices.IndexFunc(all, func(s *Site) bool { return s.key == key })
		if i < 0 {
			return nil, nil, fmt.Errorf("no site %q counts traffic", key)
		}
	} else if len(all) == 0 {
		return nil, nil, fmt.Errorf("no site counts traffic in the running config")
	}
	var others []string
	for j, s := range all {
		if j != i {
			others = append(others, s.key)
		}
	}
	return all[i], others, nil
}
