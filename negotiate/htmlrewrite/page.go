package htmlrewrite

import (
	"bytes"
	"hash/maphash"
)

// RewritePage appends page rewritten with inj to dst: by the plan of an
// earlier identical page when plans has one (fromPlan), else by the
// Rewriter, whose insertions become the plan for the next time. plans may
// be nil, and an injection without a Key is never planned: the page is
// then always rewritten anew. The plan is filed under a hash of the page's
// bytes; see RewritePageAs for a page its origin names.
func RewritePage(dst, page []byte, inj *Injection, plans *PlanCache) (out []byte, fromPlan bool) {
	return rewritePage(dst, page, inj, plans, nil)
}

// RewritePageAs is RewritePage for a page named by id, its origin's name
// for its bytes: the plan is filed under id, where LookupPlan finds it
// before the page's next copy arrives, and the page is not hashed.
func RewritePageAs(dst, page []byte, inj *Injection, plans *PlanCache, id PageID) (out []byte, fromPlan bool) {
	return rewritePage(dst, page, inj, plans, &id)
}

func rewritePage(dst, page []byte, inj *Injection, plans *PlanCache, id *PageID) (out []byte, fromPlan bool) {
	planned := plans != nil && inj != nil && inj.Key != ""
	var key planKey
	if planned {
		if id != nil {
			key = idKey(*id, inj)
		} else {
			key = planKey{page: pageSum(page), inj: maphash.String(planSeed, inj.Key)}
		}
		if p := plans.get(key); p != nil {
			if out, ok := p.apply(dst, page); ok {
				return out, true
			}
			plans.drop(p)
		}
	}
	w := bytes.NewBuffer(dst)
	r := New(w, inj)
	if planned {
		r.recordPlan(&plan{key: key})
	}
	_, _ = r.Write(page)
	_ = r.Close()      // a bytes.Buffer never fails
	if r.plan != nil { // set when planned, dropped if the rewrite gave up
		r.plan.seal(int64(len(page)))
		plans.put(r.plan)
	}
	return w.Bytes(), false
}
