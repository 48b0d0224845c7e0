// Package contract compiles and checks declared output contracts: the JSON
// Schema (2020-12) a trusted tool declares for the details of its results
// (SPEC.md chapter 13).
package contract

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// A Contract is a compiled output schema.
type Contract struct{ schema *jsonschema.Schema }

// noLoader refuses every external resource: a contract is self-contained,
// and compiling one never reads a file or the network.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("contract: external schema %q is not allowed", url)
}

// Compile compiles schema. Any error means the schema is invalid.
func Compile(schema []byte) (*Contract, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	const url = "urn:codemode:output-schema"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, err
	}
	return &Contract{schema: s}, nil
}

// ErrMismatch reports details that do not satisfy the contract. It never
// carries the value.
var ErrMismatch = errors.New("contract: details do not match the declared output schema")

// Check validates details (nil means the result had none).
func (c *Contract) Check(details []byte) error {
	if details == nil {
		return ErrMismatch
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(details))
	if err != nil {
		return ErrMismatch
	}
	if err := c.schema.Validate(v); err != nil {
		return ErrMismatch
	}
	return nil
}
