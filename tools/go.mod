module github.com/codemodekit/kit/tools

go 1.26.0

require (
	github.com/codemodekit/kit/conformance v0.0.0
	github.com/codemodekit/kit/fakes v0.0.0
	github.com/codemodekit/kit/reference v0.0.0
	github.com/codemodekit/kit/reference/quickjswasm v0.0.0
	github.com/evanw/esbuild v0.28.2
	github.com/google/go-cmp v0.7.0
)

require (
	github.com/codemodekit/kit/conformance/wire v0.0.0
	github.com/codemodekit/kit/features v0.0.0 // indirect
	github.com/codemodekit/kit/fixtures v0.0.0 // indirect
	github.com/codemodekit/kit/reference/codemodetest v0.0.0
	github.com/cucumber/gherkin/go/v42 v42.0.0 // indirect
	github.com/cucumber/godog v0.16.0 // indirect
	github.com/cucumber/messages/go/v34 v34.2.1 // indirect
	github.com/google/jsonschema-go v0.4.2 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/hashicorp/go-immutable-radix v1.3.1 // indirect
	github.com/hashicorp/go-memdb v1.3.5 // indirect
	github.com/hashicorp/golang-lru v0.5.4 // indirect
	github.com/klauspost/compress v1.20.4 // indirect
	github.com/mark3labs/mcp-go v1.2.1 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	github.com/spf13/cast v1.7.1 // indirect
	github.com/spf13/pflag v1.0.10 // indirect
	github.com/tetratelabs/wazero v1.12.0 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

replace (
	github.com/codemodekit/kit/conformance => ../conformance
	github.com/codemodekit/kit/conformance/wire => ../conformance/wire
	github.com/codemodekit/kit/fakes => ../fakes
	github.com/codemodekit/kit/features => ../features
	github.com/codemodekit/kit/fixtures => ../fixtures
	github.com/codemodekit/kit/reference => ../reference
	github.com/codemodekit/kit/reference/codemodetest => ../reference/codemodetest
	github.com/codemodekit/kit/reference/quickjswasm => ../reference/quickjswasm
)
