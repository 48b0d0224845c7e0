package mcpns

import "github.com/codemodekit/kit/reference/internal/jsjson"

// Builders of the JSON values this package writes (the $api results, the
// guest descriptor and tool inputs), which [jsjson.Value.String] writes
// with the JSON.stringify rules of SPEC.md section 1.2, in member order.

func jsonString(s string) jsjson.Value { return jsjson.Value{Kind: jsjson.String, Str: s} }

func jsonNumber(f float64) jsjson.Value { return jsjson.Value{Kind: jsjson.Number, Num: f} }

func jsonArray(els ...jsjson.Value) jsjson.Value { return jsjson.Value{Kind: jsjson.Array, Arr: els} }

// jsonObject builds an object from alternating keys and values.
func jsonObject(kv ...any) jsjson.Value {
	v := jsjson.Value{Kind: jsjson.Object}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Obj = append(v.Obj, jsjson.Member{Key: kv[i].(string), Value: kv[i+1].(jsjson.Value)})
	}
	return v
}
