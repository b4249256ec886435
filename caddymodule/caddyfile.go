package caddymodule

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	"github.com/agentready/caddy-agentready/fleet"
	"github.com/agentready/caddy-agentready/internal/setting"
	"github.com/agentready/caddy-agentready/selfscan"
	"github.com/agentready/caddy-agentready/traffic/sites"
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
	if !d.NextArg() {
		return d.ArgErr()
	}
	ar.Config = configPath(d)
	if d.NextArg() {
		return d.ArgErr()
	}
	return nil
}

// subdirective is one line of the agent_ready block: the JSON fields of
// AgentReady it sets and how it reads its arguments into them. It only
// sets what the line says: defaults and checks belong to the packages
// that own the settings (negotiate.Options, convert.Settings, …).
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
	"max_size":               {[]string{"max_size"}, word(func(ar *AgentReady) *int64 { return &ar.MaxSize }, setting.Size)},
	"max_markdown_size":      {[]string{"max_markdown_size"}, word(func(ar *AgentReady) *int64 { return &ar.MaxMarkdownSize }, setting.Size)},
	"convert_timeout":        {[]string{"convert_timeout"}, word(func(ar *AgentReady) *setting.Duration { return &ar.ConvertTimeout }, setting.Positive)},
	"queue_timeout":          {[]string{"queue_timeout"}, word(func(ar *AgentReady) *setting.Duration { return &ar.QueueTimeout }, setting.Positive)},
	"conversions_per_client": {[]string{"conversions_per_client"}, word(func(ar *AgentReady) *int { return &ar.ConversionsPerClient }, setting.AtLeast(1))},
	"markdown_suffix":        {[]string{"markdown_suffix"}, word(func(ar *AgentReady) *string { return &ar.MarkdownSuffix }, setting.Offable)},
	"link_llms":              {[]string{"link_llms"}, word(func(ar *AgentReady) *string { return &ar.LinkLLMS }, setting.Offable)},
	"link_agents":            {[]string{"link_agents"}, word(func(ar *AgentReady) *string { return &ar.LinkAgents }, setting.Offable)},
	"link_markdown":          {[]string{"link_markdown"}, word(func(ar *AgentReady) **bool { return &ar.LinkMarkdown }, setting.Switch)},
	"head_link":              {[]string{"head_link"}, word(func(ar *AgentReady) **bool { return &ar.HeadLink }, setting.Switch)},
	"cache_control":          {[]string{"cache_control"}, word(func(ar *AgentReady) *string { return &ar.CacheControl }, setting.Text)},
	"content_signal":         {[]string{"content_signal"}, words(joined)},
	"tokens_header":          {[]string{"tokens_header"}, word(func(ar *AgentReady) **bool { return &ar.TokensHeader }, setting.Switch)},
	"rewrite_cache":          {[]string{"rewrite_cache"}, word(func(ar *AgentReady) *int64 { return &ar.RewriteCache }, setting.SizeOrOff)},
	"content_selector":       {[]string{"content_selectors"}, words(appended(func(ar *AgentReady) *[]string { return &ar.ContentSelectors }))},
	"prune":                  {[]string{"prune", "prune_defaults"}, words(prune)},
	"keep":                   {[]string{"keep"}, words(appended(func(ar *AgentReady) *[]string { return &ar.Keep }))},
	"images_without_alt":     {[]string{"keep_images_without_alt"}, word(func(ar *AgentReady) *bool { return &ar.KeepImagesWithoutAlt }, keepOrDrop)},
	"jsonld_block":           {[]string{"jsonld_block"}, word(func(ar *AgentReady) **bool { return &ar.JSONLDBlock }, setting.Switch)},
	"default_language":       {[]string{"default_language"}, word(func(ar *AgentReady) *string { return &ar.DefaultLanguage }, setting.Text)},
	"conversion_cache":       {[]string{"conversion_cache"}, word(func(ar *AgentReady) *int64 { return &ar.ConversionCache }, setting.SizeOrOff)},
	"inject":                 {[]string{"inject"}, word(func(ar *AgentReady) **bool { return &ar.Inject }, setting.Switch)},
	"self_scan": {[]string{"self_scan"}, func(ar *AgentReady, d *caddyfile.Dispenser) error {
		ar.SelfScan = new(SelfScan)
		return block(d, ar.SelfScan, &ar.SelfScan.Disabled, selfscan.Subdirectives)
	}},
	"traffic": {[]string{"traffic"}, func(ar *AgentReady, d *caddyfile.Dispenser) error {
		ar.Traffic = new(Traffic)
		return block(d, ar.Traffic, &ar.Traffic.Disabled, sites.Subdirectives)
	}},
	"fleet": {[]string{"fleet"}, word(func(ar *AgentReady) **Fleet { return &ar.Fleet }, fleet.ParseSetting)},
}

// words reads the arguments of a subdirective with set (package setting's
// readers); an error names the subdirective.
func words[S any](set setting.Words[S]) func(*S, *caddyfile.Dispenser) error {
	return func(s *S, d *caddyfile.Dispenser) error {
		sub, args := d.Val(), d.RemainingArgs()
		return wordsErr(d, sub, args, set(s, args))
	}
}

// word reads the one argument of a subdirective with read into a field.
func word[T any](field func(*AgentReady) *T, read func(string) (T, error)) func(*AgentReady, *caddyfile.Dispenser) error {
	return words(setting.Word(field, read))
}

// wordsErr is err, an error of subdirective sub's arguments args, as the
// Caddyfile's error at the current token.
func wordsErr(d *caddyfile.Dispenser, sub string, args []string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, setting.ErrOneWord):
		for range len(args) - 2 {
			d.Prev() // the error names the second word, as one-argument readers do
		}
		return d.ArgErr()
	case errors.Is(err, setting.ErrArgs):
		return d.ArgErr()
	}
	return d.Errf("%s: %v", sub, err)
}

// block parses `<name> off` (which sets *off) or a block of the
// subdirectives of table into s.
func block[S any](d *caddyfile.Dispenser, s *S, off *bool, table setting.Block[S]) error {
	name := d.Val()
	if d.NextArg() {
		if d.Val() != "off" || d.NextArg() {
			return d.Errf("%s: expected 'off' or a block", name)
		}
		*off = true
		return nil
	}
	for nesting := d.Nesting(); d.NextBlock(nesting); {
		sub := d.Val()
		set, ok := table[sub]
		if !ok {
			return d.Errf("unrecognized %s subdirective '%s'", name, sub)
		}
		args := d.RemainingArgs()
		if err := wordsErr(d, name+" "+sub, args, set(s, args)); err != nil {
			return err
		}
	}
	return nil
}

// joined sets the Content-Signal value, which may be given unquoted: its
// arguments are joined with spaces.
func joined(ar *AgentReady, args []string) error {
	if len(args) == 0 {
		return setting.ErrArgs
	}
	ar.ContentSignal = strings.Join(args, " ")
	return nil
}

// appended reads one or more arguments onto a list field.
func appended(field func(*AgentReady) *[]string) setting.Words[AgentReady] {
	return func(ar *AgentReady, args []string) error {
		if len(args) == 0 {
			return setting.ErrArgs
		}
		*field(ar) = append(*field(ar), args...)
		return nil
	}
}

// prune reads `prune <selector...>` (more selectors to prune) or `prune
// off` (no built-in prune selectors).
func prune(ar *AgentReady, args []string) error {
	if len(args) == 1 && args[0] == "off" {
		ar.PruneDefaults = new(bool)
		return nil
	}
	return appended(func(ar *AgentReady) *[]string { return &ar.Prune })(ar, args)
}

// keepOrDrop reads images_without_alt's keep or drop.
func keepOrDrop(v string) (bool, error) {
	if v != "keep" && v != "drop" {
		return false, fmt.Errorf("expected keep or drop, got '%s'", v)
	}
	return v == "keep", nil
}
