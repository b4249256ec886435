// Package ard runs the Agentic Resource Discovery (ARD v0.91) audit exactly as
// Lighthouse's `ard-schema` audit does: discovery of the manifest (robots.txt
// `Agentmap:`, `<link rel="ard">`, `Link: rel="ard"`, `/.well-known/ard.json`,
// then the legacy `ai-catalog` names), validation (JSON Schema plus the hand
// rules of the ARD conformance test, ported message for message), and scoring
// (1, 0.9, 0 or not applicable) with the Root/entry element table.
//
// The package judges a site over HTTP only and imports none of the project's
// other packages. Messages are Lighthouse's, in English, so that a report can be
// compared line by line with a Lighthouse run.
package ard
