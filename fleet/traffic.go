package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/agentready/caddy-agentready/traffic"
)

// trafficDir is where each instance writes its counts, one key each.
const trafficDir = "traffic"

// storageTimeout bounds one storage operation of the traffic view.
const storageTimeout = 10 * time.Second

// PublishTraffic writes this instance's counts (what traffic.Store.Save
// writes) under its id, for the other instances' views. A failure turns
// the Fleet degraded (and is logged there).
func (f *Fleet) PublishTraffic(saved []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), storageTimeout)
	defer cancel()
	return f.result(ctx, "store", f.cfg.Storage.Store(ctx, f.key(trafficDir, f.cfg.Instance+".json"), saved))
}

// Traffic is the fleet's traffic view: own's counts and the others', read
// from the storage now (TrafficView); own's alone when it fails.
func (f *Fleet) Traffic(ctx context.Context, own *traffic.Store) traffic.Snapshot {
	ctx, cancel := context.WithTimeout(ctx, storageTimeout)
	defer cancel()
	others, _ := f.OtherTraffic(ctx)
	return TrafficView(own, f.cfg.Instance, others)
}

// OtherTraffic reads the counts the other instances wrote, by instance id.
func (f *Fleet) OtherTraffic(ctx context.Context) (map[string][]byte, error) {
	keys, err := f.cfg.Storage.List(ctx, f.key(trafficDir), false)
	if err = f.result(ctx, "list", err); err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, k := range keys {
		id, ok := strings.CutSuffix(path.Base(k), ".json")
		if !ok || id == f.cfg.Instance {
			continue
		}
		data, err := f.cfg.Storage.Load(ctx, k)
		if err = f.result(ctx, "load", err); err != nil {
			return nil, err
		}
		out[id] = data
	}
	return out, nil
}

// TrafficView is the fleet's traffic: own's counts and those the others
// wrote (OtherTraffic), summed, with each instance's part in
// Snapshot.Fleet. A file that does not read is left out of the sums and
// the breakdown.
func TrafficView(own *traffic.Store, self string, others map[string][]byte) traffic.Snapshot {
	mine := own.Snapshot()
	var buf bytes.Buffer
	if err := own.Save(&buf); err != nil {
		return mine
	}
	sum := traffic.NewStore(traffic.StoreConfig{})
	if err := sum.Load(&buf); err != nil {
		return mine
	}
	parts := []traffic.InstanceCounts{{Instance: self, Self: true, Saved: mine.Generated, Totals: mine.Totals}}
	for id, data := range others {
		var saved struct {
			Snapshot traffic.Snapshot `json:"snapshot"`
		}
		if json.Unmarshal(data, &saved) != nil || sum.Load(bytes.NewReader(data)) != nil {
			continue
		}
		parts = append(parts, traffic.InstanceCounts{Instance: id, Saved: saved.Snapshot.Generated, Totals: saved.Snapshot.Totals})
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i].Instance < parts[j].Instance })
	snap := sum.Snapshot()
	snap.Fleet = parts
	return snap
}
