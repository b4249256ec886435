// Package convert turns an HTML page into the Markdown an agent would rather
// read: it parses the page once, finds the main content, drops the chrome
// around it, converts it with html-to-markdown v2, prepends YAML front matter
// and counts the result's tokens with the o200k_base BPE tokenizer.
//
// Content is chosen in this order, over the same parsed document:
//
//  1. the configured ContentSelectors, in the order given: the site owner
//     knows the site better than any heuristic, so the first selector that
//     matches wins ("selector:<selector>");
//  2. the landmarks: the first visible <main> ("landmark:main"), an element
//     with role="main" ("landmark:role-main"), or the page's only top-level
//     <article> ("landmark:article"), none of them inside a <header>,
//     <footer>, <nav> or <aside> (HTML's "hierarchically correct" main).
//     A landmark holding less than a fifth of the body's text (a role="main"
//     around the breadcrumbs, one teaser <article>) is taken only when
//     go-readability's article does not lie mostly outside it; else the
//     steps below choose. A landmark is a candidate: when it
//     holds chrome (a block of mostly link text, a form control) and
//     go-readability judges it to hold an article, or it is mostly link text
//     and go-readability's article inside it is not, go-readability runs on
//     a copy of the landmark, and the blocks none of whose text it kept (related and most-popular lists,
//     media-player menus, buttons, bio cards) are removed ("+pruned" is
//     added to the extraction); on a page that does not declare itself an
//     article, when the landmark holds more than three times the text of
//     go-readability's article (one section of a service or product page)
//     and that article is not a post of a thread, nothing is. Headings, tables, code, definition lists,
//     inline elements, bylines, the article's header and Keep matches are
//     never removed this way, nor a block that holds code, a definition
//     list, an admonition or a DocBook box (sidebar, note, tip), nor a link list
//     mistaken for the article's header, so pages that are not articles keep
//     all their content. After the article's end (the last text readability
//     kept), a block of which it kept nothing goes even when it holds prose
//     or a byline (an author box and its bio, a block theme's sidebar
//     column), unless such blocks hold half the article's text or more (a
//     forum topic's replies); a section of plain text there stays when a
//     block that is never removed (a heading, a table, prose) follows it.
//     A page that declares itself an article (og:type) is refined even
//     when go-readability finds it too short to judge;
//  3. the whole <body> ("body"), when it holds no chrome at all: no block
//     of mostly link text outside a paragraph (a man page's "See also
//     git-rm(1), git-mv(1)" is a sentence) and no form control. A man page
//     or a manual's chapter is then converted whole, where readability
//     would keep only its best-scoring section;
//  4. go-readability, for pages without landmarks that it judges to be
//     articles ("readability"), run on a copy of the page. When its article
//     leaves out a code block or a definition list of the page (outside the
//     chrome the prune rules remove), or three headings where the rest holds
//     twice the article's text, the page is a reference page cut down to its
//     best-scoring section (a man page's option list): the body is narrowed
//     with go-readability as an oracle instead, as a landmark is
//     ("body+oracle"), so the synopsis, the examples and a chapter's table
//     of contents stay (fallback.go). When its article is one post of a
//     thread (one of three or more dated siblings of one tag, class and
//     template, posts.go), the posts are the content
//     ("readability+posts"); inside a landmark, the oracle keeps them all.
//     On a page that does not declare itself an article, an article that
//     holds less than a third of the body's text (outside the prune rules)
//     is one section of a service or product page: the cleaned body (5) is
//     the content instead, when cleaning removes chrome from it;
//  5. the whole <body>, cleaned ("body+cleaned"): a site <header> that does
//     not hold the page's <h1>, widget forms (search, newsletter) and blocks
//     of mostly link text (menus, lists of other articles) are removed,
//     unless that would leave less than a third of the text (a listing's
//     links are its content: then "body"), so pages that are not articles
//     (pricing tables, product lists, home pages with cards) lose none of
//     their content.
//
// Prune selectors then remove chrome inside the chosen content; Keep selectors
// protect what must survive (a kept element outside the chosen content is
// appended after it). A prune rule never empties a page: when nothing would
// be left, none is applied. A comment thread the default rules remove
// (#comments, .comment-list, ...) stays when it holds more than twice the
// text of the rest of the body, or when the page declares itself a forum
// thread (schema.org DiscussionForumPosting, in JSON-LD or microdata): a
// forum topic keeps its posts there.
//
// What an article's body (schema.org's articleBody) does not hold goes
// too (headerlines.go, toc.go, captions.go): the short lines next to the
// first <h1> that are its metadata (a date alone, "8 min read", a byline,
// a link to the author's page; the front matter has the date and the
// author), the in-page tables of contents, and the pictures' credits.
//
// Nothing is lost in conversion: a data table whose cells hold code, lists
// or quotes becomes a list (one item per row, "**Header**: content"), code
// inside quotes keeps every line in the quote, admonitions keep their title,
// an <aside> that holds code is not pruned as chrome (a Sphinx sidebar keeps
// its title like an admonition), and only what would change the CommonMark meaning is escaped (escape.go):
// link text reads "[>>>]", not "[&gt;&gt;&gt;]". No link or image keeps a
// javascript:, vbscript: or data: URL (its text or alt text stays), byte
// order marks are dropped, a line break in a table cell keeps the table a
// table, and a layout table (one column without header cells, or cells
// that hold blocks) becomes blocks.
// An empty page converts to its front matter and an empty body; a script
// shell with no text is ErrNoContent.
//
// Nothing in a page makes its conversion cost more than linear work in its
// size (bound.go, budget.go): quotes and lists deeper than ten levels are
// written at that depth, table spans are clamped and costly tables written
// as text, readability is not run where its work would grow with the page's
// depth, and ConvertContext stops when its context is done or the Markdown
// outgrows Options.MaxMarkdownSize.
package convert
