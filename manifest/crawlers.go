package manifest

// CrawlerKind is one of the three kinds of AI crawler (STANDARD §5 rule 6).
type CrawlerKind string

// The crawler kinds.
const (
	// KindTraining collects data to train models.
	KindTraining CrawlerKind = "training"
	// KindSearch indexes pages for AI search and citation.
	KindSearch CrawlerKind = "search"
	// KindUser fetches a page a person asked an assistant to open.
	KindUser CrawlerKind = "user"
)

// KnownCrawlers is the maintained table of AI crawler user-agent tokens per
// kind, from the operators' own documentation. Extend it per site with
// policy.extra_agents; send additions upstream when an operator documents a
// new token.
var KnownCrawlers = map[CrawlerKind][]string{
	KindTraining: {
		"GPTBot",                       // OpenAI, training
		"ClaudeBot",                    // Anthropic, training
		"anthropic-ai",                 // Anthropic, legacy training token
		"Google-Extended",              // Google, Gemini training control token
		"Applebot-Extended",            // Apple, training control token
		"CCBot",                        // Common Crawl
		"Meta-ExternalAgent",           // Meta, training
		"Bytespider",                   // ByteDance
		"cohere-training-data-crawler", // Cohere
		"AI2Bot",                       // Allen Institute for AI
		"Amazonbot",                    // Amazon
		"Diffbot",                      // Diffbot
		"PanguBot",                     // Huawei
		"Timpibot",                     // Timpi
		"omgili",                       // Webz.io
	},
	KindSearch: {
		"OAI-SearchBot",    // OpenAI, ChatGPT search
		"Claude-SearchBot", // Anthropic, search
		"PerplexityBot",    // Perplexity, search index
		"YouBot",           // You.com
		"DuckAssistBot",    // DuckDuckGo, AI answers
	},
	KindUser: {
		"ChatGPT-User",         // OpenAI, user-initiated fetch
		"Claude-User",          // Anthropic, user-initiated fetch
		"Perplexity-User",      // Perplexity, user-initiated fetch
		"MistralAI-User",       // Mistral, user-initiated fetch
		"Meta-ExternalFetcher", // Meta, user-initiated fetch
	},
}
