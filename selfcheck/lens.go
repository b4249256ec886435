package selfcheck

import "context"

// A lens is one way of judging a scanned site: a catalogue of checkpoints
// with verdicts of their own, run over the same site as every other lens
// (one fetch cache, one set of parsed documents, one redactor), so that two
// lenses judging the same thing see the same answers. The 100-point score of
// STANDARD.md §1 is the first lens; a lens added after it reports beside the
// score and never changes it (STANDARD.md §11, §12).
type lens interface {
	// run judges the site and records the lens's findings in r.
	run(ctx context.Context, s *site, r *Report)
	// unreachable records the lens's findings when the home page gave no
	// answer at all: every checkpoint COULD_NOT_CHECK, with the home
	// page's receipt.
	unreachable(s *site, home *response, r *Report)
}

// lenses are the lenses Scan runs, in order. Each lives in a
// lens_<name>.go file of its own: its catalogue, its run, and where its
// findings go in the Report; a new lens is appended here.
var lenses = []lens{scoreLens{}, protocolLens{}, lintLens{}}
