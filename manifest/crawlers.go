package manifest

import "github.com/agentready/caddy-agentready/traffic/agents"

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

// KnownCrawlers is the table of AI crawler user-agent tokens per kind. It
// is derived from the one data file of known agents (traffic/agents,
// agents.yaml), which cites each operator's documentation, so that the
// robots.txt groups name exactly the agents the traffic view counts and
// enforcement governs: the robots tokens of the agents the AI policy
// governs, in file order; autonomous agents fall under the user kind.
// Extend it per site with policy.extra_agents; send additions upstream to
// agents.yaml when an operator documents a new token.
var KnownCrawlers = map[CrawlerKind][]string{
	KindTraining: agents.RobotsTokens(agents.Training),
	KindSearch:   agents.RobotsTokens(agents.Search),
	KindUser:     agents.RobotsTokens(agents.User, agents.Autonomous),
}
