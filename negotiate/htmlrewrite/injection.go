package htmlrewrite

// Injection says what the HTML form of a page gains on its way through. The
// zero value (or a nil *Injection) changes nothing.
type Injection struct {
	// Lang is set as the lang attribute of <html> when the tag has none;
	// "" never sets it.
	Lang string
	// Head elements are inserted, in order, just before </head>; when the
	// page has no </head>, before <body> or whatever first starts the body
	// (a tag that cannot sit in a head, or non-blank text). An element is
	// left out when its SkipIf matched a tag already in the head.
	Head []HeadElement
	// Forms lists the WebMCP annotations to add to matching <form> start
	// tags and to their fields.
	Forms []FormAnnotation
	// Key identifies the injection for the rewrite plans (RewritePage,
	// and negotiate's Options.RewriteCache): two injections with the same
	// non-empty Key must be equal. "" keeps every page rewritten anew.
	Key string
}

// HeadElement is a piece of markup to insert into the head of a page.
type HeadElement struct {
	// HTML is inserted verbatim: the caller escapes what it interpolates.
	HTML string
	// SkipIf names a tag whose presence in the head makes HTML redundant
	// (the page already has its canonical link, say); the zero TagMatch
	// never skips.
	SkipIf TagMatch
}

// TagMatch matches a start tag by name and attributes.
type TagMatch struct {
	// Tag is the element name, compared case-insensitively; "" matches any
	// element (only useful with Attrs).
	Tag string
	// Attrs must all be present. A value of "*" accepts any value; "rel" is
	// matched as a space-separated token list (every token of the wanted
	// value must be present); other values are compared case-insensitively.
	Attrs map[string]string
}

// FormAnnotation adds attributes (WebMCP's toolname, tooldescription, …) to
// the forms a selector picks and to their fields.
type FormAnnotation struct {
	// Selector is a CSS selector matched against the <form> element alone:
	// its name, id, classes and attributes (the rewriter streams, so
	// selectors that look at ancestors or siblings never match).
	Selector string
	// Attrs are added to the <form> start tag; attributes the tag already
	// has are never overwritten.
	Attrs map[string]string
	// Fields maps the name attribute of an <input>, <select> or <textarea>
	// inside the form to the attributes added to it (again never
	// overwriting).
	Fields map[string]map[string]string
}
