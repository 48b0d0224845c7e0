module github.com/codemodekit/kit/conformance

go 1.26

require (
	github.com/codemodekit/kit/fakes v0.0.0
	github.com/codemodekit/kit/features v0.0.0
	github.com/codemodekit/kit/fixtures v0.0.0
	github.com/cucumber/gherkin/go/v42 v42.0.0
	github.com/cucumber/godog v0.16.0
	github.com/cucumber/messages/go/v34 v34.2.1
	github.com/google/go-cmp v0.7.0
)

require (
	github.com/codemodekit/kit/conformance/wire v0.0.0
	github.com/google/jsonschema-go v0.4.2 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/hashicorp/go-immutable-radix v1.3.1 // indirect
	github.com/hashicorp/go-memdb v1.3.5 // indirect
	github.com/hashicorp/golang-lru v0.5.4 // indirect
	github.com/mark3labs/mcp-go v1.2.1 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2 // indirect
	github.com/spf13/cast v1.7.1 // indirect
	github.com/spf13/pflag v1.0.10 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/text v0.14.0 // indirect
)

replace (
	github.com/codemodekit/kit/conformance/wire => ./wire
	github.com/codemodekit/kit/fakes => ../fakes
	github.com/codemodekit/kit/features => ../features
	github.com/codemodekit/kit/fixtures => ../fixtures
)
