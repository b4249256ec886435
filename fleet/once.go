package fleet

import (
	"context"
	"encoding/json"
	"time"
)

// Result is the outcome of work done once for the fleet (Once).
type Result struct {
	// Data is what the work returned.
	Data []byte `json:"data"`
	// Instance is the instance that did the work.
	Instance string `json:"instance"`
	// At is when it finished.
	At time.Time `json:"at"`
}

// Once runs work once for the fleet in each window of fresh: under the
// storage lock named name, a result another instance stored less than
// fresh ago is returned as it is; otherwise work runs here and its result
// is stored for the others (fresh 0: it always runs here, and the others
// take its result). When the storage fails, work runs here alone.
func (f *Fleet) Once(ctx context.Context, name string, fresh time.Duration, work func(context.Context) ([]byte, error)) (Result, error) {
	st := f.cfg.Storage
	lock, key := f.key(name), f.key(name+".result")
	if err := f.result(ctx, "lock", st.Lock(ctx, lock)); err != nil {
		if ctx.Err() != nil {
			return Result{}, err
		}
		return f.runOnce(work, ctx)
	}
	defer f.unlock(lock)
	if fresh > 0 {
		var r Result
		data, err := st.Load(ctx, key)
		if f.result(ctx, "load", err) == nil && json.Unmarshal(data, &r) == nil && f.cfg.Now().Sub(r.At) < fresh {
			return r, nil
		}
	}
	r, err := f.runOnce(work, ctx)
	if err != nil {
		return r, err
	}
	data, _ := json.Marshal(r)
	_ = f.result(ctx, "store", st.Store(ctx, key, data))
	return r, nil
}

// unlock lets go of the storage lock, with a time of its own: the work's
// context may be done by then.
func (f *Fleet) unlock(lock string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = f.result(ctx, "unlock", f.cfg.Storage.Unlock(ctx, lock))
}

func (f *Fleet) runOnce(work func(context.Context) ([]byte, error), ctx context.Context) (Result, error) {
	data, err := work(ctx)
	return Result{Data: data, Instance: f.cfg.Instance, At: f.cfg.Now()}, err
}
