package manifest

import (
	"errors"
	"os"
	"path/filepath"
)

// Source says where a site's YAML comes from: a file or an inline
// string, or neither (the defaults). It is the part of the agent_ready
// handler's settings that names the YAML; the handler embeds it, so its
// fields are the handler's JSON fields.
type Source struct {
	// Config is the path of the site's YAML file (see docs/configuration.md).
	// In JSON, a relative path is resolved against Caddy's working
	// directory; the Caddyfile adapter resolves it against the Caddyfile's
	// directory.
	// Default: none; when SiteYAML is empty too, the documents are
	// generated from defaults derived from the request's origin.
	Config string `json:"config,omitempty"`

	// ConfigSHA256 is the hex SHA-256 of the Config file's content when the
	// Caddyfile was adapted. The Caddyfile adapter sets it so that an edit
	// of the YAML changes the adapted config and `caddy reload` applies it
	// (Caddy skips a reload whose config is unchanged). It is not checked
	// against the file: in a JSON config, change it (or run `caddy reload
	// --force`) after an edit of the YAML. Default: none.
	ConfigSHA256 string `json:"config_sha256,omitempty"`

	// SiteYAML is the site's YAML configuration inlined as a string, for
	// JSON configs that do not want a separate file. Mutually exclusive with
	// Config. Default: none.
	SiteYAML string `json:"site_yaml,omitempty"`
}

// Load reads the site's YAML from the file or the inline string, or
// returns the defaults.
func (s Source) Load() (*Site, error) {
	switch {
	case s.Config != "" && s.SiteYAML != "":
		return nil, errors.New("config and site_yaml are mutually exclusive")
	case s.Config != "":
		return Load(s.Config)
	case s.SiteYAML != "":
		return Parse([]byte(s.SiteYAML), "site_yaml")
	}
	return Default(), nil
}

// Dir is where relative paths of the YAML (skill files) resolve from: the
// file's directory, else the working directory.
func (s Source) Dir() string {
	if s.Config == "" {
		wd, _ := os.Getwd()
		return wd
	}
	return filepath.Dir(s.Config)
}
