package connect

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/standard"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"
)

// Field names and boosts of the full-text index.
const (
	fieldTitle       = "title"
	fieldDescription = "description"
	fieldBody        = "body"
	boostTitle       = 3
	boostDescription = 2
	indexDirName     = "connect.bleve"
)

// doc is one indexed page as held in memory.
type doc struct {
	key         string // normalised URL the Source listed; the index id
	url         string // canonical URL
	title       string
	description string
	language    string
	updated     string
	markdown    []byte // as the Source returned it
	bodyStart   int    // offset of the body after any front matter
	validators  Validators
}

// size is what the page counts against the byte budget.
func (d *doc) size() int64 { return int64(len(d.markdown)) }

// fields are the document bleve indexes.
func (d *doc) fields() map[string]any {
	return map[string]any{fieldTitle: d.title, fieldDescription: d.description, fieldBody: string(d.body())}
}

// body is the Markdown without its front matter.
func (d *doc) body() []byte { return d.markdown[d.bodyStart:] }

// hit is one search result.
type hit struct {
	doc   *doc
	score float64
}

// index holds the pages (a map for lookups, a sorted key list for listing)
// and the bleve full-text index over them.
type index struct {
	mu    sync.RWMutex
	docs  map[string]*doc
	keys  []string // sorted; rebuilt by finish
	bytes int64

	fullMu   sync.RWMutex // held for reading during a search, for writing to swap full
	full     bleve.Index
	analyzer string // of every text field (see analyzerFor)
	path     string // on-disk index directory, "" in memory
	segments int    // batches applied to an in-memory index since it was built
}

// In-memory scorch never merges segments (one per batch), so after
// maxSegments batches the index is rebuilt in compactChunk-sized batches.
const (
	maxSegments  = 16
	compactChunk = 2000
)

// openIndex creates an empty index in memory, or on disk under dir (which is
// created when missing and must be writable; an index left there by an
// earlier run is replaced).
func openIndex(dir, analyzer string) (*index, error) {
	x := &index{docs: make(map[string]*doc), analyzer: analyzer}
	if dir == "" {
		full, err := newMemIndex(analyzer)
		if err != nil {
			return nil, err
		}
		x.full = full
		return x, nil
	}
	if err := checkWritableDir(dir); err != nil {
		return nil, err
	}
	x.path = filepath.Join(dir, indexDirName)
	if err := os.RemoveAll(x.path); err != nil {
		return nil, fmt.Errorf("connect: removing old index %q: %v", x.path, err)
	}
	full, err := bleve.NewUsing(x.path, indexMapping(analyzer), scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("connect: creating index in %q: %v", x.path, err)
	}
	x.full = full
	return x, nil
}

// newMemIndex creates an in-memory scorch index (scorch with no path keeps
// its segments in memory; it is much faster and smaller than bleve's
// MemOnly upsidedown store).
func newMemIndex(analyzer string) (bleve.Index, error) {
	full, err := bleve.NewUsing("", indexMapping(analyzer), scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("connect: creating in-memory index: %v", err)
	}
	return full, nil
}

// checkWritableDir creates dir if needed and proves it writable with a probe
// file, so a read-only directory fails at start with a clear error.
func checkWritableDir(dir string) error {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return fmt.Errorf("connect: index directory %q: %v", dir, err)
	}
	f, err := os.CreateTemp(dir, ".connect-probe-*")
	if err != nil {
		return fmt.Errorf("connect: index directory %q is not writable: %v", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// analyzerFor is the analyzer of a site in language (a BCP 47 tag, "" when
// not configured). English, or a language not configured, gets bleve's
// English analyzer: Unicode word segmentation, possessives dropped, lower
// case, English stop words, Porter stemming. A question is worded with other
// inflections than the page that answers it ("read and write CSV files" for
// "CSV File Reading and Writing"), and the query goes through the same
// analyzer as the pages, so stemming joins the forms of a word on both
// sides; on a page in another language left unconfigured it only strips
// English suffixes from both alike. Any other configured language gets the
// standard analyzer (segmentation, lower case, English stop words, no
// stemming).
func analyzerFor(language string) string {
	l := strings.ToLower(language)
	if l == "" || l == "en" || strings.HasPrefix(l, "en-") {
		return en.AnalyzerName
	}
	return standard.Name
}

// indexMapping indexes title, description and body as text with analyzer
// (see analyzerFor). Nothing is stored: the documents live in the map.
func indexMapping(analyzer string) mapping.IndexMapping {
	text := bleve.NewTextFieldMapping()
	text.Analyzer = analyzer
	text.Store = false
	text.IncludeInAll = false
	text.IncludeTermVectors = false
	text.DocValues = false
	page := bleve.NewDocumentStaticMapping()
	for _, f := range []string{fieldTitle, fieldDescription, fieldBody} {
		page.AddFieldMappingsAt(f, text)
	}
	m := bleve.NewIndexMapping()
	m.DefaultMapping = page
	m.DefaultAnalyzer = analyzer
	m.StoreDynamic = false
	m.IndexDynamic = false
	m.DocValuesDynamic = false
	return m
}

// get returns the page stored under key, trying the other trailing-slash
// form too.
func (x *index) get(key string) *doc {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if d, ok := x.docs[key]; ok {
		return d
	}
	if alt := alternateSlash(key); alt != "" {
		return x.docs[alt]
	}
	return nil
}

// validators returns the validators held for key.
func (x *index) validators(key string) (Validators, bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	d, ok := x.docs[key]
	if !ok {
		return Validators{}, false
	}
	return d.validators, true
}

// counts returns the number of pages and their bytes.
func (x *index) counts() (int, int64) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.docs), x.bytes
}

// list returns up to n pages whose URL starts with prefix, in URL order,
// after the key after ("" for the first page), and whether more follow.
func (x *index) list(prefix, after string, n int) ([]*doc, bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	start := sort.SearchStrings(x.keys, max(prefix, after))
	if start < len(x.keys) && x.keys[start] == after {
		start++
	}
	var out []*doc
	for i := start; i < len(x.keys); i++ {
		k := x.keys[i]
		if !strings.HasPrefix(k, prefix) {
			break
		}
		if len(out) == n {
			return out, true
		}
		if d, ok := x.docs[k]; ok {
			out = append(out, d)
		}
	}
	return out, false
}

// search runs q over title, description and body and returns up to limit
// pages, best first, one per canonical URL.
func (x *index) search(ctx context.Context, q string, limit int) ([]hit, error) {
	if strings.TrimSpace(q) == "" || limit <= 0 {
		return nil, nil
	}
	fields := []struct {
		name  string
		boost float64
	}{{fieldTitle, boostTitle}, {fieldDescription, boostDescription}, {fieldBody, 1}}
	var qs []query.Query
	for _, f := range fields {
		mq := bleve.NewMatchQuery(q)
		mq.SetField(f.name)
		mq.SetBoost(f.boost)
		qs = append(qs, mq)
	}
	req := bleve.NewSearchRequestOptions(bleve.NewDisjunctionQuery(qs...), limit, 0, false)
	x.fullMu.RLock()
	res, err := x.full.SearchInContext(ctx, req)
	x.fullMu.RUnlock()
	if err != nil {
		return nil, fmt.Errorf("searching index: %w", err)
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	hits := make([]hit, 0, len(res.Hits))
	seen := make(map[string]bool, len(res.Hits))
	for _, h := range res.Hits {
		if d, ok := x.docs[h.ID]; ok && !seen[d.url] {
			seen[d.url] = true
			hits = append(hits, hit{doc: d, score: h.Score})
		}
	}
	return hits, nil
}

// batcher applies page changes to the map at once and to bleve in batches.
type batcher struct {
	x     *index
	batch *bleve.Batch
	err   error
}

// batchSize is how many changes go to bleve at once.
const batchSize = 1000

func (x *index) newBatcher() *batcher { return &batcher{x: x, batch: x.full.NewBatch()} }

// put stores d, replacing any page under the same key.
func (b *batcher) put(d *doc) {
	b.x.mu.Lock()
	if old, ok := b.x.docs[d.key]; ok {
		b.x.bytes -= old.size()
	}
	b.x.docs[d.key] = d
	b.x.bytes += d.size()
	b.x.mu.Unlock()
	err := b.batch.Index(d.key, d.fields())
	b.keep(err)
	b.maybeFlush()
}

// remove drops the page under key.
func (b *batcher) remove(key string) {
	b.x.mu.Lock()
	if old, ok := b.x.docs[key]; ok {
		b.x.bytes -= old.size()
		delete(b.x.docs, key)
	}
	b.x.mu.Unlock()
	b.batch.Delete(key)
	b.maybeFlush()
}

func (b *batcher) maybeFlush() {
	if b.batch.Size() >= batchSize {
		b.flush()
	}
}

// flush sends pending changes to bleve and rebuilds the sorted key list.
func (b *batcher) flush() {
	if b.batch.Size() > 0 {
		b.keep(b.x.full.Batch(b.batch))
		// A fresh batch, not Reset: scorch's Batch may still be ranging
		// over the old one's map in a goroutine after it returns (it does
		// when deletions follow the last update).
		b.batch = b.x.full.NewBatch()
		b.x.segments++
	}
	b.x.mu.Lock()
	b.x.keys = slices.Sorted(maps.Keys(b.x.docs))
	b.x.mu.Unlock()
}

func (b *batcher) keep(err error) {
	if err != nil && b.err == nil {
		b.err = fmt.Errorf("updating index: %w", err)
	}
}

// compact rebuilds an in-memory index whose segments have piled up, and
// swaps it in once built (searches meanwhile use the old one). Only the
// refresh calls it, so the pages do not change underneath.
func (x *index) compact() error {
	if x.path != "" || x.segments < maxSegments {
		return nil
	}
	fresh, err := newMemIndex(x.analyzer)
	if err != nil {
		return err
	}
	x.mu.RLock()
	docs := slices.Collect(maps.Values(x.docs))
	x.mu.RUnlock()
	batch, segments := fresh.NewBatch(), 0
	for i, d := range docs {
		err = errors.Join(err, batch.Index(d.key, d.fields()))
		if batch.Size() == compactChunk || i == len(docs)-1 {
			err = errors.Join(err, fresh.Batch(batch))
			batch = fresh.NewBatch() // not Reset: see batcher.flush
			segments++
		}
	}
	if err != nil {
		fresh.Close()
		return fmt.Errorf("compacting index: %w", err)
	}
	x.fullMu.Lock()
	old := x.full
	x.full, x.segments = fresh, segments
	x.fullMu.Unlock()
	return old.Close()
}

// close releases the bleve index and removes its directory.
func (x *index) close() error {
	x.fullMu.Lock() // waits for searches in flight
	defer x.fullMu.Unlock()
	err := x.full.Close()
	if x.path != "" {
		err = errors.Join(err, os.RemoveAll(x.path))
	}
	return err
}

// snapshotKeys returns the keys of the pages held now.
func (x *index) snapshotKeys() []string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return slices.Collect(maps.Keys(x.docs))
}
