package caddymodule

import (
	"strconv"
	"strings"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/dustin/go-humanize"
)

func init() {
	httpcaddyfile.RegisterHandlerDirective("agent_ready", parseCaddyfile)
	// After encode, so agent_ready reads and writes plain bytes and the
	// Markdown it produces is still compressed on the way out.
	httpcaddyfile.RegisterDirectiveOrder("agent_ready", httpcaddyfile.After, "encode")
}

func parseCaddyfile(h httpcaddyfile.Helper) (caddyhttp.MiddlewareHandler, error) {
	ar := new(AgentReady)
	if err := ar.UnmarshalCaddyfile(h.Dispenser); err != nil {
		return nil, err
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
//	}
//
// A path starting with "/" right after the directive is read as a path
// matcher, as for every Caddy handler directive: give absolute paths with
// the config subdirective. Every subdirective may be omitted; see the JSON
// fields of AgentReady for defaults. Subdirectives taking selectors may be repeated. Quote selectors
// that start with '#': the Caddyfile reads an unquoted '#' as a comment.
func (ar *AgentReady) UnmarshalCaddyfile(d *caddyfile.Dispenser) error {
	d.Next() // consume directive name
	if d.NextArg() {
		ar.Config = d.Val()
		if d.NextArg() {
			return d.ArgErr()
		}
	}
	// Subdirectives by the kind of value they take.
	strs := map[string]*string{
		"config":           &ar.Config,
		"cache_control":    &ar.CacheControl,
		"default_language": &ar.DefaultLanguage,
	}
	offable := map[string]*string{ // "off" is stored as "-"
		"markdown_suffix": &ar.MarkdownSuffix,
		"link_llms":       &ar.LinkLLMS,
		"link_agents":     &ar.LinkAgents,
	}
	switches := map[string]**bool{
		"link_markdown": &ar.LinkMarkdown,
		"head_link":     &ar.HeadLink,
		"tokens_header": &ar.TokensHeader,
		"jsonld_block":  &ar.JSONLDBlock,
		"inject":        &ar.Inject,
	}
	lists := map[string]*[]string{
		"content_selector": &ar.ContentSelectors,
		"keep":             &ar.Keep,
	}
	sizes := map[string]*int64{ // "off" is stored as -1 where allowed
		"max_size":          &ar.MaxSize,
		"max_markdown_size": &ar.MaxMarkdownSize,
		"conversion_cache":  &ar.ConversionCache,
		"rewrite_cache":     &ar.RewriteCache,
	}
	for d.NextBlock(0) {
		sub := d.Val()
		switch {
		case strs[sub] != nil:
			v, err := oneArg(d)
			if err != nil {
				return err
			}
			*strs[sub] = v
		case offable[sub] != nil:
			v, err := oneArg(d)
			if err != nil {
				return err
			}
			if v == "off" {
				v = "-"
			}
			*offable[sub] = v
		case switches[sub] != nil:
			b, err := onOff(d)
			if err != nil {
				return err
			}
			*switches[sub] = &b
		case lists[sub] != nil:
			args := d.RemainingArgs()
			if len(args) == 0 {
				return d.ArgErr()
			}
			*lists[sub] = append(*lists[sub], args...)
		case sizes[sub] != nil:
			v, err := oneArg(d)
			if err != nil {
				return err
			}
			if v == "off" && (sub == "conversion_cache" || sub == "rewrite_cache") {
				*sizes[sub] = -1
				continue
			}
			n, err := humanize.ParseBytes(v)
			if err != nil || n == 0 {
				return d.Errf("%s: invalid size '%s'", sub, v)
			}
			*sizes[sub] = int64(n)
		case sub == "convert_timeout":
			v, err := oneArg(d)
			if err != nil {
				return err
			}
			dur, err := caddy.ParseDuration(v)
			if err != nil || dur <= 0 {
				return d.Errf("convert_timeout: invalid duration '%s'", v)
			}
			ar.ConvertTimeout = caddy.Duration(dur)
		case sub == "content_signal":
			args := d.RemainingArgs()
			if len(args) == 0 {
				return d.ArgErr()
			}
			ar.ContentSignal = strings.Join(args, " ")
		case sub == "prune":
			args := d.RemainingArgs()
			switch {
			case len(args) == 0:
				return d.ArgErr()
			case len(args) == 1 && args[0] == "off":
				ar.PruneDefaults = new(bool)
			default:
				ar.Prune = append(ar.Prune, args...)
			}
		case sub == "images_without_alt":
			v, err := oneArg(d)
			if err != nil {
				return err
			}
			if v != "keep" && v != "drop" {
				return d.Errf("images_without_alt: expected keep or drop, got '%s'", v)
			}
			ar.KeepImagesWithoutAlt = v == "keep"
		case sub == "self_scan":
			if err := ar.unmarshalSelfScan(d); err != nil {
				return err
			}
		default:
			return d.Errf("unrecognized subdirective '%s'", sub)
		}
	}
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
