package jsjson

// Kind is the JSON type of a [Value].
type Kind uint8

// The JSON types.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// A Value is one JSON value. Objects keep the order of their members,
// which Go maps lose: schemas are rendered in schema order and values are
// written back as compact JSON, so the order has to survive parsing.
//
// Only the field of the value's Kind is set. Str holds WTF-8 (see the
// package documentation). Values are plain data: copying one shares its
// array and member storage, so a value that is shared is not changed.
type Value struct {
	Kind Kind
	Bool bool
	Num  float64
	Str  string
	Arr  []Value
	Obj  []Member
}

// A Member is one member of a JSON object.
type Member struct {
	Key   string
	Value Value
}

// Get returns the member key of an object, or nil when v is nil, not an
// object or has no such member. The pointer is into v: it stays the same
// for the same member as long as v's members are not appended to.
func (v *Value) Get(key string) *Value {
	if v == nil || v.Kind != Object {
		return nil
	}
	for i := range v.Obj {
		if v.Obj[i].Key == key {
			return &v.Obj[i].Value
		}
	}
	return nil
}

// IsObject reports whether v is a JSON object (not nil, not null, not an
// array).
func (v *Value) IsObject() bool { return v != nil && v.Kind == Object }

// Set gives the member key of an object the value val: it replaces the
// value of the first member named key, or appends a member at the end.
func (v *Value) Set(key string, val Value) {
	for i := range v.Obj {
		if v.Obj[i].Key == key {
			v.Obj[i].Value = val
			return
		}
	}
	v.Obj = append(v.Obj, Member{Key: key, Value: val})
}

// String returns the compact JSON text of v, JSON.stringify(v).
func (v *Value) String() string { return string(v.AppendJSON(nil)) }

// AppendJSON appends the compact JSON text of v, JSON.stringify(v), to b.
func (v *Value) AppendJSON(b []byte) []byte {
	switch v.Kind {
	case Null:
		return append(b, "null"...)
	case Bool:
		if v.Bool {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case Number:
		return append(b, FormatNumber(v.Num)...)
	case String:
		return appendQuote(b, v.Str)
	case Array:
		b = append(b, '[')
		for i := range v.Arr {
			if i > 0 {
				b = append(b, ',')
			}
			b = v.Arr[i].AppendJSON(b)
		}
		return append(b, ']')
	default:
		b = append(b, '{')
		for i := range v.Obj {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendQuote(b, v.Obj[i].Key)
			b = append(b, ':')
			b = v.Obj[i].Value.AppendJSON(b)
		}
		return append(b, '}')
	}
}
