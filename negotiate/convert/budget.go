package convert

import (
	"context"
	"errors"
	"fmt"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"
)

// DefaultMaxMarkdownSize is the default Options.MaxMarkdownSize: four times
// the proxy's default max_size. The Markdown of a page is smaller than its
// HTML (the text without its markup); far beyond the HTML's size, the output
// is amplification (repeated table spans, quote and list prefixes, long
// resolved URLs), not content.
const DefaultMaxMarkdownSize = 8 << 20

// ErrTooLarge means the Markdown grew past Options.MaxMarkdownSize; the
// conversion stopped there.
var ErrTooLarge = errors.New("convert: markdown larger than the output budget")

// budget is what one conversion may still spend: its context (the client's
// request, with the time budget as its deadline) and the Markdown bytes it
// may produce. It is checked between the pipeline's stages and, through
// the budget plugin, at every element html-to-markdown renders.
type budget struct {
	ctx    context.Context
	maxOut int // bytes; <= 0 is no limit
	steps  int // elements rendered (and skipped once over), for tests
	err    error
}

// check returns the reason to stop, if any: the context's error or an
// exceeded output.
func (b *budget) check() error {
	if b.err == nil {
		if err := b.ctx.Err(); err != nil {
			b.err = fmt.Errorf("convert: stopped: %w", err)
		}
	}
	return b.err
}

// output records that the Markdown being written has reached n bytes.
func (b *budget) output(n int) error {
	if b.err == nil && b.maxOut > 0 && n > b.maxOut {
		b.err = fmt.Errorf("%w (more than %d bytes)", ErrTooLarge, b.maxOut)
	}
	return b.err
}

// budgetKey is the context key of the *budget of a conversion.
type budgetKey struct{}

// withBudget is the html-to-markdown option that runs a conversion under
// b: its context, and the budget plugin's view of b.
func withBudget(b *budget) converter.ConvertOptionFunc {
	return converter.WithContext(context.WithValue(b.ctx, budgetKey{}, b))
}

// budgetCheckEvery is how many elements are rendered between two looks at
// the context (whose Err takes a lock).
const budgetCheckEvery = 256

// budgetPlugin stops html-to-markdown when the conversion is over budget.
// Its renderer runs before every other one on each element: it counts the
// element, and once the context is done or the buffer being written (the
// document's, or the one an enclosing quote, list or cell renders into) is
// larger than the output budget, it answers "rendered" with nothing
// written, so the rest of the tree is skipped without being walked.
type budgetPlugin struct{}

func (budgetPlugin) Name() string { return "agent-ready-budget" }

func (budgetPlugin) Init(conv *converter.Converter) error {
	// Below PriorityEarly: first of all the renderers.
	conv.Register.Renderer(renderBudget, 0)
	return nil
}

// lener is the part of *bytes.Buffer (every converter.Writer the library
// makes) that tells how much was written.
type lener interface{ Len() int }

func renderBudget(ctx converter.Context, w converter.Writer, _ *html.Node) converter.RenderStatus {
	b, _ := ctx.Value(budgetKey{}).(*budget)
	if b == nil {
		return converter.RenderTryNext
	}
	if b.err != nil {
		return converter.RenderSuccess
	}
	b.steps++
	if l, ok := w.(lener); ok && b.output(l.Len()) != nil {
		return converter.RenderSuccess
	}
	if b.steps%budgetCheckEvery == 0 && b.check() != nil {
		return converter.RenderSuccess
	}
	return converter.RenderTryNext
}
