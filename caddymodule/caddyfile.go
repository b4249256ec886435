package caddymodule

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/dustin/go-humanize"
)

func init() {
	httpcaddyfile.RegisterDirective("agent_ready", parseDirective)
	// After encode, so agent_ready reads and writes plain bytes and the
	// Markdown it produces is still compressed on the way out.
	httpcaddyfile.RegisterDirectiveOrder("agent_ready", httpcaddyfile.After, "encode")
}

// parseDirective is what httpcaddyfile.RegisterHandlerDirective does for a
// handler directive, with one check first: a lone first argument that
// names a YAML file and starts with '/' would silently become a path
// matcher (the handler then runs only for that path and with no YAML), so
// it is an error that gives the fix.
func parseDirective(h httpcaddyfile.Helper) ([]httpcaddyfile.ConfigValue, error) {
	if !h.Next() {
		return nil, h.ArgErr()
	}
	if h.NextArg() {
		if v := h.Val(); strings.HasPrefix(v, "/") && isYAMLFile(v) {
			return nil, h.Errf("agent_ready %s: an argument starting with '/' is a path matcher, not the site's YAML; write the file in the block: agent_ready { config %s }", v, v)
		}
		h.Prev()
	}
	matcherSet, err := h.ExtractMatcherSet()
	if err != nil {
		return nil, err
	}
	ar, err := parseCaddyfile(h)
	if err != nil {
		return nil, err
	}
	return h.NewRoute(matcherSet, ar), nil
}

// isYAMLFile reports whether name ends in .yaml or .yml.
func isYAMLFile(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".yaml" || ext == ".yml"
}

// parseCaddyfile reads the directive and, when it names a YAML file, the
// file's SHA-256 into ConfigSHA256: the adapted config then changes when
// the file does, so `caddy reload` applies an edit of the YAML (Caddy
// skips a reload whose adapted config is unchanged). A file that cannot be
// read is an error here, at adapt time.
func parseCaddyfile(h httpcaddyfile.Helper) (caddyhttp.MiddlewareHandler, error) {
	ar := new(AgentReady)
	if err := ar.UnmarshalCaddyfile(h.Dispenser); err != nil {
		return nil, err
	}
	if ar.Config != "" {
		raw, err := os.ReadFile(ar.Config)
		if err != nil {
			return nil, h.Errf("agent_ready config: %v", err)
		}
		sum := sha256.Sum256(raw)
		ar.ConfigSHA256 = hex.EncodeToString(sum[:])
	}
	return ar, nil
}

// UnmarshalCaddyfile sets up the handler from Caddyfile tokens. Syntax:
//
//	agent_ready [<matcher>] [<config.yaml>] {
//	    config             <file>
//	    max_size           <size>
//	    max_markdown_size  <size>
//	    convert_timeout    <duration>
//	    queue_timeout      <duration>
//	    conversions_per_client <n>
//	    markdown_suffix    <suffix>|off
//	    link_llms          <target>|off
//	    link_agents        <target>|off
//	    link_markdown      on|off
//	    head_link          on|off
//	    cache_control      <value>
//	    content_signal     <value>
//	    tokens_header      on|off
//	    content_selector   <selector...>
//	    prune              <selector...>|off   # off: no default prune selectors
//	    keep               <selector...>
//	    images_without_alt keep|drop
//	    jsonld_block       on|off
//	    default_language   <tag>
//	    conversion_cache   <size>|off
//	    rewrite_cache      <size>|off
//	    inject             on|off
//	    self_scan          off
//	    self_scan {
//	        target   <url>
//	        delay    <duration>
//	        interval <duration>|off
//	        timeout  <duration>
//	        pages    <n>
//	    }
//	    traffic            off
//	    traffic {
//	        save_interval  <duration>|off
//	        ranges         <list url> <file>
//	        refresh_ranges <duration>|off
//	        reverse_dns    on|off
//	    }
//	    fleet              on|off|<sync interval>
//	}
//
// A path starting with "/" right after the directive is read as a path
// matcher, as for every Caddy handler directive: give absolute paths with
// the config subdirective (an absolute .yaml/.yml path there is an error
// that says so). A relative config path is the Caddyfile's directory's.
// A subdirective given twice is an error, except the repeatable
// content_selector, prune and keep. Every subdirective may be omitted; see the JSON
// fields of AgentReady for defaults. Subdirectives taking selectors may be repeated. Quote selectors
// that start with '#': the Caddyfile reads an unquoted '#' as a comment.
func (ar *AgentReady) UnmarshalCaddyfile(d *caddyfile.Dispenser) error {
	d.Next()                 // consume directive name
	seen := map[string]int{} // subdirective -> line it was first given on
	if d.NextArg() {
		ar.Config = configPath(d)
		seen["config"] = d.Line()
		if d.NextArg() {
			return d.ArgErr()
		}
	}
	for d.NextBlock(0) {
		name := d.Val()
		sub, ok := subdirectives[name]
		if !ok {
			return d.Errf("unrecognized subdirective '%s'", name)
		}
		if line, dup := seen[name]; dup && !repeatable[name] {
			return d.Errf("%s given twice (first on line %d): keep one", name, line)
		}
		seen[name] = d.Line()
		if err := sub.parse(ar, d); err != nil {
			return err
		}
	}
	return nil
}

// repeatable are the subdirectives that may be given more than once (each
// adds selectors).
var repeatable = map[string]bool{"content_selector": true, "prune": true, "keep": true}

// configPath is the current token as the YAML file's path: a relative path
// is taken from the directory of the Caddyfile that names it, not from
// Caddy's working directory.
func configPath(d *caddyfile.Dispenser) string {
	p := d.Val()
	if filepath.IsAbs(p) || d.File() == "" {
		return p
	}
	return filepath.Join(filepath.Dir(d.File()), p)
}

// parseConfig reads `config <file>` (configPath: a relative file is the
// Caddyfile's directory's).
func (ar *AgentReady) parseConfig(d *caddyfile.Dispenser) error {
	if _, err := oneArg(d); err != nil {
		return err
	}
	ar.Config = configPath(d) // oneArg leaves the file as the current token
	return nil
}

// subdirective is one line of the agent_ready block: the JSON fields of
// AgentReady it sets and how it reads its arguments into them. It only
// sets what the line says: defaults and checks belong to the packages
// that own the settings (negotiate.Options, convert.Settings).
type subdirective struct {
	fields []string
	parse  func(ar *AgentReady, d *caddyfile.Dispenser) error
}

// subdirectives is the syntax of the agent_ready block. Every JSON field of
// AgentReady but site_yaml and config_sha256 (set by parseCaddyfile from
// the file config names) has its subdirective, named as the field except
// content_selector (repeatable, one selector list each), images_without_alt
// (keep or drop) and prune (whose "off" is prune_defaults).
var subdirectives = map[string]subdirective{
	"config":                 {[]string{"config"}, (*AgentReady).parseConfig},
	"max_size":               {[]string{"max_size"}, sizeArg(false, func(ar *AgentReady) *int64 { return &ar.MaxSize })},
	"max_markdown_size":      {[]string{"max_markdown_size"}, sizeArg(false, func(ar *AgentReady) *int64 { return &ar.MaxMarkdownSize })},
	"convert_timeout":        {[]string{"convert_timeout"}, durationArg(func(ar *AgentReady) *caddy.Duration { return &ar.ConvertTimeout })},
	"queue_timeout":          {[]string{"queue_timeout"}, durationArg(func(ar *AgentReady) *caddy.Duration { return &ar.QueueTimeout })},
	"conversions_per_client": {[]string{"conversions_per_client"}, countArg(func(ar *AgentReady) *int { return &ar.ConversionsPerClient })},
	"markdown_suffix":        {[]string{"markdown_suffix"}, offableArg(func(ar *AgentReady) *string { return &ar.MarkdownSuffix })},
	"link_llms":              {[]string{"link_llms"}, offableArg(func(ar *AgentReady) *string { return &ar.LinkLLMS })},
	"link_agents":            {[]string{"link_agents"}, offableArg(func(ar *AgentReady) *string { return &ar.LinkAgents })},
	"link_markdown":          {[]string{"link_markdown"}, switchArg(func(ar *AgentReady) **bool { return &ar.LinkMarkdown })},
	"head_link":              {[]string{"head_link"}, switchArg(func(ar *AgentReady) **bool { return &ar.HeadLink })},
	"cache_control":          {[]string{"cache_control"}, textArg(func(ar *AgentReady) *string { return &ar.CacheControl })},
	"content_signal":         {[]string{"content_signal"}, (*AgentReady).parseContentSignal},
	"tokens_header":          {[]string{"tokens_header"}, switchArg(func(ar *AgentReady) **bool { return &ar.TokensHeader })},
	"rewrite_cache":          {[]string{"rewrite_cache"}, sizeArg(true, func(ar *AgentReady) *int64 { return &ar.RewriteCache })},
	"content_selector":       {[]string{"content_selectors"}, listArgs(func(ar *AgentReady) *[]string { return &ar.ContentSelectors })},
	"prune":                  {[]string{"prune", "prune_defaults"}, (*AgentReady).parsePrune},
	"keep":                   {[]string{"keep"}, listArgs(func(ar *AgentReady) *[]string { return &ar.Keep })},
	"images_without_alt":     {[]string{"keep_images_without_alt"}, (*AgentReady).parseImagesWithoutAlt},
	"jsonld_block":           {[]string{"jsonld_block"}, switchArg(func(ar *AgentReady) **bool { return &ar.JSONLDBlock })},
	"default_language":       {[]string{"default_language"}, textArg(func(ar *AgentReady) *string { return &ar.DefaultLanguage })},
	"conversion_cache":       {[]string{"conversion_cache"}, sizeArg(true, func(ar *AgentReady) *int64 { return &ar.ConversionCache })},
	"inject":                 {[]string{"inject"}, switchArg(func(ar *AgentReady) **bool { return &ar.Inject })},
	"self_scan":              {[]string{"self_scan"}, (*AgentReady).unmarshalSelfScan},
	"traffic":                {[]string{"traffic"}, (*AgentReady).unmarshalTraffic},
	"fleet":                  {[]string{"fleet"}, (*AgentReady).unmarshalFleet},
}

// textArg reads one argument into a string field.
func textArg(field func(*AgentReady) *string) func(*AgentReady, *caddyfile.Dispenser) error {
	return func(ar *AgentReady, d *caddyfile.Dispenser) error {
		v, err := oneArg(d)
		if err != nil {
			return err
		}
		*field(ar) = v
		return nil
	}
}

// offableArg reads one argument into a string field; "off" is stored as
// "-", the value that turns the setting off.
func offableArg(field func(*AgentReady) *string) func(*AgentReady, *caddyfile.Dispenser) error {
	return func(ar *AgentReady, d *caddyfile.Dispenser) error {
		v, err := oneArg(d)
		if err != nil {
			return err
		}
		if v == "off" {
			v = "-"
		}
		*field(ar) = v
		return nil
	}
}

// switchArg reads on or off into a *bool field.
func switchArg(field func(*AgentReady) **bool) func(*AgentReady, *caddyfile.Dispenser) error {
	return func(ar *AgentReady, d *caddyfile.Dispenser) error {
		b, err := onOff(d)
		if err != nil {
			return err
		}
		*field(ar) = &b
		return nil
	}
}

// listArgs appends one or more arguments to a list field.
func listArgs(field func(*AgentReady) *[]string) func(*AgentReady, *caddyfile.Dispenser) error {
	return func(ar *AgentReady, d *caddyfile.Dispenser) error {
		args := d.RemainingArgs()
		if len(args) == 0 {
			return d.ArgErr()
		}
		*field(ar) = append(*field(ar), args...)
		return nil
	}
}

// sizeArg reads a positive size ("4MiB", "10MB", bytes) into a field; with
// offable, "off" is stored as -1.
func sizeArg(offable bool, field func(*AgentReady) *int64) func(*AgentReady, *caddyfile.Dispenser) error {
	return func(ar *AgentReady, d *caddyfile.Dispenser) error {
		sub := d.Val()
		v, err := oneArg(d)
		if err != nil {
			return err
		}
		if v == "off" && offable {
			*field(ar) = -1
			return nil
		}
		n, err := humanize.ParseBytes(v)
		if err != nil || n == 0 || n > math.MaxInt64 {
			return d.Errf("%s: invalid size '%s'", sub, v)
		}
		*field(ar) = int64(n)
		return nil
	}
}

// durationArg reads a positive duration into a field.
func durationArg(field func(*AgentReady) *caddy.Duration) func(*AgentReady, *caddyfile.Dispenser) error {
	return func(ar *AgentReady, d *caddyfile.Dispenser) error {
		sub := d.Val()
		v, err := oneArg(d)
		if err != nil {
			return err
		}
		dur, err := caddy.ParseDuration(v)
		if err != nil || dur <= 0 {
			return d.Errf("%s: invalid duration '%s'", sub, v)
		}
		*field(ar) = caddy.Duration(dur)
		return nil
	}
}

// countArg reads a positive whole number into a field.
func countArg(field func(*AgentReady) *int) func(*AgentReady, *caddyfile.Dispenser) error {
	return func(ar *AgentReady, d *caddyfile.Dispenser) error {
		sub := d.Val()
		v, err := oneArg(d)
		if err != nil {
			return err
		}
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return d.Errf("%s: invalid number '%s'", sub, v)
		}
		*field(ar) = n
		return nil
	}
}

// parseContentSignal reads the Content-Signal value, which may be given
// unquoted: its arguments are joined with spaces.
func (ar *AgentReady) parseContentSignal(d *caddyfile.Dispenser) error {
	args := d.RemainingArgs()
	if len(args) == 0 {
		return d.ArgErr()
	}
	ar.ContentSignal = strings.Join(args, " ")
	return nil
}

// parsePrune reads `prune <selector...>` (more selectors to prune) or
// `prune off` (no built-in prune selectors).
func (ar *AgentReady) parsePrune(d *caddyfile.Dispenser) error {
	args := d.RemainingArgs()
	switch {
	case len(args) == 0:
		return d.ArgErr()
	case len(args) == 1 && args[0] == "off":
		ar.PruneDefaults = new(bool)
	default:
		ar.Prune = append(ar.Prune, args...)
	}
	return nil
}

func (ar *AgentReady) parseImagesWithoutAlt(d *caddyfile.Dispenser) error {
	v, err := oneArg(d)
	if err != nil {
		return err
	}
	if v != "keep" && v != "drop" {
		return d.Errf("images_without_alt: expected keep or drop, got '%s'", v)
	}
	ar.KeepImagesWithoutAlt = v == "keep"
	return nil
}

// unmarshalSelfScan parses `self_scan off` or a self_scan block.
func (ar *AgentReady) unmarshalSelfScan(d *caddyfile.Dispenser) error {
	ss := new(SelfScan)
	ar.SelfScan = ss
	if d.NextArg() {
		if d.Val() != "off" || d.NextArg() {
			return d.Errf("self_scan: expected 'off' or a block")
		}
		ss.Disabled = true
		return nil
	}
	for nesting := d.Nesting(); d.NextBlock(nesting); {
		sub := d.Val()
		v, err := oneArg(d)
		if err != nil {
			return err
		}
		switch sub {
		case "target":
			ss.Target = v
		case "delay", "interval", "timeout":
			var dur caddy.Duration
			if sub == "interval" && v == "off" {
				dur = -1
			} else {
				parsed, err := caddy.ParseDuration(v)
				if err != nil || parsed <= 0 {
					return d.Errf("self_scan %s: invalid duration '%s'", sub, v)
				}
				dur = caddy.Duration(parsed)
			}
			switch sub {
			case "delay":
				ss.Delay = dur
			case "interval":
				ss.Interval = dur
			default:
				ss.Timeout = dur
			}
		case "pages":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return d.Errf("self_scan pages: invalid number '%s'", v)
			}
			ss.Pages = n
		default:
			return d.Errf("unrecognized self_scan subdirective '%s'", sub)
		}
	}
	return nil
}

// oneArg reads exactly one argument of the current subdirective.
func oneArg(d *caddyfile.Dispenser) (string, error) {
	if !d.NextArg() {
		return "", d.ArgErr()
	}
	v := d.Val()
	if d.NextArg() {
		return "", d.ArgErr()
	}
	return v, nil
}

// onOff reads one on/off argument of the current subdirective.
func onOff(d *caddyfile.Dispenser) (bool, error) {
	sub := d.Val()
	v, err := oneArg(d)
	if err != nil {
		return false, err
	}
	switch v {
	case "on", "true":
		return true, nil
	case "off", "false":
		return false, nil
	}
	if b, err := strconv.ParseBool(v); err == nil {
		return b, nil
	}
	return false, d.Errf("%s: expected on or off, got '%s'", sub, v)
}
