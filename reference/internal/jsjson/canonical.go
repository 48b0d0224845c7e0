package jsjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Canonical re-serializes the JSON text raw as JSON.stringify(JSON.parse(raw))
// would, keeping object member order.
//
// It reads raw with encoding/json's tokenizer, not [Parse], and so differs
// from JSON.parse where that reader does: a repeated key is written as
// often as it occurs, a lone surrogate escape becomes U+FFFD, and a stray
// closing bracket after the value is not an error. Its callers (the
// configuration and the cell tests) rely on the text it writes today.
func Canonical(raw []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var sb strings.Builder
	if err := writeValue(&sb, dec); err != nil {
		return "", err
	}
	if dec.More() {
		return "", fmt.Errorf("jsjson: trailing data")
	}
	return sb.String(), nil
}

func writeValue(sb *strings.Builder, dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			sb.WriteByte('{')
			first := true
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				if !first {
					sb.WriteByte(',')
				}
				first = false
				sb.WriteString(Quote(k.(string)))
				sb.WriteByte(':')
				if err := writeValue(sb, dec); err != nil {
					return err
				}
			}
			_, err := dec.Token()
			sb.WriteByte('}')
			return err
		case '[':
			sb.WriteByte('[')
			first := true
			for dec.More() {
				if !first {
					sb.WriteByte(',')
				}
				first = false
				if err := writeValue(sb, dec); err != nil {
					return err
				}
			}
			_, err := dec.Token()
			sb.WriteByte(']')
			return err
		}
	case string:
		sb.WriteString(Quote(t))
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil && !strings.Contains(err.Error(), "range") {
			return err
		}
		sb.WriteString(FormatNumber(f))
	case bool:
		sb.WriteString(strconv.FormatBool(t))
	case nil:
		sb.WriteString("null")
	}
	return nil
}
