package manifest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"time"
)

// skillsSchema is the $schema of the agent skills discovery index v0.2.0.
const skillsSchema = "https://schemas.agentskills.io/discovery/0.2.0/schema.json"

// skillPath is the path a skill file is served at.
func skillPath(sk Skill) string {
	if sk.Type != "archive" {
		return "/.well-known/agent-skills/" + sk.Name + "/SKILL.md"
	}
	ext := ".tar.gz"
	switch f := strings.ToLower(sk.File); {
	case strings.HasSuffix(f, ".zip"):
		ext = ".zip"
	case strings.HasSuffix(f, ".tgz"):
		ext = ".tgz"
	}
	return "/.well-known/agent-skills/" + sk.Name + ext
}

// skillContentType is the Content-Type of a served skill file.
func skillContentType(p string) string {
	switch path.Ext(p) {
	case ".md":
		return "text/markdown; charset=utf-8"
	case ".zip":
		return "application/zip"
	}
	return "application/gzip"
}

// skills reads every skill file and renders the index with the sha256
// digest of the exact bytes served.
func (r *resolved) skills() ([]Document, error) {
	type entry struct {
		Name        string `json:"name"`
		Type        string `json:"type"`
		Description string `json:"description"`
		URL         string `json:"url"`
		Digest      string `json:"digest"`
	}
	var docs []Document
	var entries []entry
	for _, sk := range r.s.Skills {
		body, mod, err := readSkill(r.s.skillPath(sk.File, r.configDir))
		if err != nil {
			return nil, fmt.Errorf("generating agent skills: skill %s: %w", sk.Name, err)
		}
		p := skillPath(sk)
		sum := sha256.Sum256(body)
		entries = append(entries, entry{Name: sk.Name, Type: sk.Type, Description: oneLine(sk.Description),
			URL: r.origin + p, Digest: "sha256:" + hex.EncodeToString(sum[:])})
		docs = append(docs, Document{Path: p, ContentType: skillContentType(p), Body: body,
			CacheControl: r.s.Documents.CacheControl, OriginWins: r.s.Documents.AgentSkills == ServeOrigin, ModTime: mod})
	}
	index, err := marshal(map[string]any{"$schema": skillsSchema, "skills": entries})
	if err != nil {
		return nil, err
	}
	docs = append(docs, Document{Path: PathSkillsIndex, ContentType: "application/json", Body: index,
		CacheControl: r.s.Documents.CacheControl, OriginWins: r.s.Documents.AgentSkills == ServeOrigin, ModTime: r.now})
	return docs, nil
}

// readSkill reads at most maxSkillBytes of a skill file, with its
// modification time.
func readSkill(name string) ([]byte, time.Time, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, time.Time{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, time.Time{}, err
	}
	if !fi.Mode().IsRegular() {
		return nil, time.Time{}, fmt.Errorf("%s is not a regular file", name)
	}
	body, err := io.ReadAll(io.LimitReader(f, maxSkillBytes+1))
	if err != nil {
		return nil, time.Time{}, err
	}
	if len(body) > maxSkillBytes {
		return nil, time.Time{}, fmt.Errorf("%s is larger than %d bytes", name, maxSkillBytes)
	}
	return body, fi.ModTime().UTC().Truncate(time.Second), nil
}
