package contract

import "testing"

func TestContract(t *testing.T) {
	const shipments = `{"type":"array","items":{"type":"object","required":["id","paid"],"properties":{"id":{"type":"string"},"paid":{"type":"boolean"}},"additionalProperties":false}}`
	tests := []struct {
		name    string
		schema  string
		details string // "" means no details
		compile bool
		match   bool
	}{
		{name: "valid array", schema: shipments, details: `[{"id":"a","paid":true}]`, compile: true, match: true},
		{name: "extra member", schema: shipments, details: `[{"id":"a","paid":true,"x":1}]`, compile: true},
		{name: "wrong type", schema: shipments, details: `{"id":"a"}`, compile: true},
		{name: "no details", schema: shipments, compile: true},
		{name: "not JSON", schema: `{"type":`},
		{name: "bad keyword value", schema: `{"type":"no-such-type"}`},
		{name: "external ref refused", schema: `{"$ref":"file:///etc/passwd"}`},
		{name: "remote ref refused", schema: `{"$ref":"https://example.com/s.json"}`},
		{name: "local ref", schema: `{"$defs":{"n":{"type":"number"}},"$ref":"#/$defs/n"}`, details: `3`, compile: true, match: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Compile([]byte(tt.schema))
			if (err == nil) != tt.compile {
				t.Fatalf("Compile(%s) error = %v, want compile %v", tt.schema, err, tt.compile)
			}
			if err != nil {
				return
			}
			var details []byte
			if tt.details != "" {
				details = []byte(tt.details)
			}
			if err := c.Check(details); (err == nil) != tt.match {
				t.Errorf("Check(%s) = %v, want match %v", tt.details, err, tt.match)
			}
		})
	}
}
