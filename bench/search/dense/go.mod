module github.com/agentready/caddy-agentready/bench/search/dense

go 1.26.8

require (
	github.com/agentready/caddy-agentready v0.0.0
	github.com/yalue/onnxruntime_go v1.21.0
	golang.org/x/text v0.42.0
)

require (
	github.com/blevesearch/snowballstem v0.9.0 // indirect
	github.com/klauspost/compress v1.20.1 // indirect
	golang.org/x/net v0.60.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)

replace github.com/agentready/caddy-agentready => ../../..
