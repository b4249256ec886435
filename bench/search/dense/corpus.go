package main

import "github.com/agentready/caddy-agentready/bench/search/sitecorpus"

// question is a question of a site and its answer page (read by
// sitecorpus, as bench/search reads it).
type question = sitecorpus.Question

// site is one documentation site (sitecorpus.Sites).
type site = sitecorpus.Site

// score is recall@5 and MRR@10 of one design on one site.
type score = sitecorpus.Score
