package jsonfile

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// nullChecker walks a valid JSON document, keeping the path to the
// current value for the error: value returns an error naming the first
// null that would be decoded into a value of a type that has no nil:
// a number, string, bool, struct or array. encoding/json leaves such a
// value untouched on null — the zero value, or whatever the destination
// held — so a required number written as null would read as 0. A null is
// accepted where t (or the member's type) is a pointer, slice, map or
// interface, whose nil it decodes to (pointers are the optional members,
// and encoding/json writes a nil slice or map as null), and inside a value
// decoded by its own UnmarshalJSON or UnmarshalText (json.RawMessage
// included), which checks what it reads itself. Members are matched to
// struct fields as encoding/json does: by json tag or field name, exactly
// or else ignoring case, promoted fields of embedded structs included; a
// member without a field is left to the decoder's unknown-field check,
// which Unmarshal locates with findUnknown.
type nullChecker struct {
	b    []byte
	i    int
	path []pathElem
	// noNulls, when not empty, names the document (DecodeObject's what)
	// in which every null is an error, whatever its type.
	noNulls string
	// members, when not nil, collects the member names of the top-level
	// object.
	members map[string]bool
	// complete makes a member missing from an object decoded into a
	// struct an error when its field is required (DecodeComplete).
	complete bool
	// findUnknown makes the first member of an object decoded into a
	// struct that has no field for it the error, an
	// *UnknownMemberError (Err not set), the walk stopping there.
	findUnknown bool
	unknown     *UnknownMemberError
}

// pathElem is an object member's name or, when key is empty and isIndex
// is set, an array index.
type pathElem struct {
	key     string
	index   int
	isIndex bool
}

// where formats the path, e.g. columns[3].weight ("the document" at the
// top).
func (c *nullChecker) where() string {
	if len(c.path) == 0 {
		return "the document"
	}
	return c.pathString()
}

// pathString formats the path as where does, "" at the top.
func (c *nullChecker) pathString() string {
	var s strings.Builder
	for k, e := range c.path {
		switch {
		case e.isIndex:
			s.WriteString("[" + strconv.Itoa(e.index) + "]")
		case k > 0:
			s.WriteString("." + e.key)
		default:
			s.WriteString(e.key)
		}
	}
	return s.String()
}

func (c *nullChecker) ws() {
	for c.i < len(c.b) {
		switch c.b[c.i] {
		case ' ', '\t', '\r', '\n':
			c.i++
		default:
			return
		}
	}
}

// value checks the value at c.i, to be decoded into t (nil: anything, not
// checked), and moves past it.
func (c *nullChecker) value(t reflect.Type) error {
	c.ws()
	if c.i >= len(c.b) {
		return nil
	}
	if len(c.path) == 0 && !strings.ContainsRune("{n", rune(c.b[c.i])) {
		if t := inner(t); t != nil && t.Kind() == reflect.Struct {
			// A document of another kind than the object a struct
			// decodes: encoding/json would name the Go type.
			return fmt.Errorf("the document is %s; want an object", jsonKind(c.b[c.i]))
		}
	}
	switch c.b[c.i] {
	case 'n':
		c.i += len("null")
		if c.noNulls != "" {
			return fmt.Errorf("%s is null: a %s has no nulls", c.where(), c.noNulls)
		}
		if t != nil && !nillable(t) {
			return fmt.Errorf("%s is null; want %s", c.where(), describe(t))
		}
		return nil
	case '"':
		c.str()
		return nil
	case '{':
		t = inner(t)
		var present map[string]bool // the struct fields the object gives
		if c.complete && t != nil && t.Kind() == reflect.Struct {
			present = map[string]bool{}
		}
		err := c.items('}', func(int) (pathElem, reflect.Type) {
			key := c.str()
			if c.members != nil && len(c.path) == 0 {
				c.members[key] = true
			}
			c.ws()
			c.i++ // ':'
			name, ft := member(t, key)
			if c.findUnknown && ft == nil && t != nil && t.Kind() == reflect.Struct {
				c.unknown = &UnknownMemberError{Name: key, In: c.pathString()}
			}
			if present != nil {
				present[name] = true
			}
			return pathElem{key: key}, ft
		})
		if err != nil || present == nil {
			return err
		}
		for _, f := range requiredFields(t) {
			if !present[f.name] {
				c.path = append(c.path, pathElem{key: f.name})
				err := fmt.Errorf("%s is missing; want %s", c.where(), describeValue(f.t))
				c.path = c.path[:len(c.path)-1]
				return err
			}
		}
		return nil
	case '[':
		var elem reflect.Type
		if t = inner(t); t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		return c.items(']', func(n int) (pathElem, reflect.Type) { return pathElem{index: n, isIndex: true}, elem })
	default: // a number, true or false
		for c.i < len(c.b) && !strings.ContainsRune(",]} \t\r\n", rune(c.b[c.i])) {
			c.i++
		}
		return nil
	}
}

// items checks the members or elements of the object or array whose
// opening bracket is at c.i, and moves past its closing bracket close. For
// the n-th, item reads what precedes its value (a member's name and colon)
// and returns the value's path element and type.
func (c *nullChecker) items(close byte, item func(n int) (pathElem, reflect.Type)) error {
	c.i++
	for n := 0; ; n++ {
		c.ws()
		switch c.b[c.i] {
		case close:
			c.i++
			return nil
		case ',':
			c.i++
			c.ws()
		}
		e, t := item(n)
		if c.unknown != nil {
			return c.unknown
		}
		c.path = append(c.path, e)
		if err := c.value(t); err != nil {
			return err
		}
		c.path = c.path[:len(c.path)-1]
	}
}

// str reads the string at c.i and returns its value.
func (c *nullChecker) str() string {
	start, escaped := c.i, false
	for c.i++; c.i < len(c.b) && c.b[c.i] != '"'; c.i++ {
		if c.b[c.i] == '\\' {
			escaped = true
			c.i++
		}
	}
	c.i++
	raw := c.b[start:min(c.i, len(c.b))]
	if !escaped {
		return string(raw[1 : len(raw)-1])
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// nillable reports whether t decodes null to its nil.
func nillable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map:
		return true
	}
	return false
}

// jsonKind names the kind of the JSON value that starts with the byte b
// (not null, not an object).
func jsonKind(b byte) string {
	switch b {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't':
		return "true"
	case 'f':
		return "false"
	}
	return "a number"
}

// describe names what a value of t is, for the error.
func describe(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Float32, reflect.Float64, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if !opaque(t) {
			return "a number"
		}
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Struct:
		return "an object"
	case reflect.Array:
		return "an array"
	}
	return "a value"
}

// opaque reports whether values of t decode themselves (UnmarshalJSON or
// UnmarshalText).
func opaque(t reflect.Type) bool {
	return t.Implements(jsonUnmarshaler) || t.Implements(textUnmarshaler) ||
		reflect.PointerTo(t).Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler)
}

// inner returns the type whose members or elements a value of t holds:
// t without its pointers, or nil when they are not checked (t nil, an
// interface, or a type that decodes itself).
func inner(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		if opaque(t) {
			return nil
		}
		t = t.Elem()
	}
	if t == nil || t.Kind() == reflect.Interface || opaque(t) {
		return nil
	}
	return t
}

// member returns the field name and the type of the member key of an
// object decoded into t (a struct or a map; nil: not checked). The name is
// the struct field's JSON name that key matches, as encoding/json matches
// them (exactly, or else ignoring case), or key.
func member(t reflect.Type, key string) (string, reflect.Type) {
	switch {
	case t == nil:
		return key, nil
	case t.Kind() == reflect.Map:
		return key, t.Elem()
	case t.Kind() != reflect.Struct:
		return key, nil
	}
	fs := structFields(t)
	if f, ok := fs[key]; ok {
		return key, f.t
	}
	for name, f := range fs {
		if strings.EqualFold(name, key) {
			return name, f.t
		}
	}
	return key, nil
}

// describeValue is describe, naming slices and maps too: what a missing
// member should have been.
func describeValue(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice:
		return "an array"
	case reflect.Map:
		return "an object"
	}
	return describe(t)
}

// requiredFields returns the fields of struct type t, in the order
// structFields finds them, whose member DecodeComplete requires: those
// encoding/json always writes (not tagged omitempty or omitzero) that are
// neither a pointer nor a map.
func requiredFields(t reflect.Type) []field {
	if fs, ok := requiredCache.Load(t); ok {
		return fs.([]field)
	}
	var req []field
	for _, f := range orderedFields(t) {
		if !f.optional && f.t.Kind() != reflect.Pointer && f.t.Kind() != reflect.Map {
			req = append(req, f)
		}
	}
	requiredCache.Store(t, req)
	return req
}

var requiredCache sync.Map // reflect.Type → []field

// field is a JSON member of a struct: its name, its field's type and
// whether the field is tagged omitempty or omitzero.
type field struct {
	name     string
	t        reflect.Type
	optional bool
}

var fieldCache sync.Map // reflect.Type → map[string]field

// structFields returns the JSON members of struct type t by name.
func structFields(t reflect.Type) map[string]field {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.(map[string]field)
	}
	fs := map[string]field{}
	for _, f := range orderedFields(t) {
		fs[f.name] = f
	}
	fieldCache.Store(t, fs)
	return fs
}

// orderedFields returns the JSON members of struct type t, as
// encoding/json names them: a field's json tag name or its name; fields
// tagged "-" and unexported ones left out; the fields of an embedded
// struct without a tag name promoted, a shallower field winning. They come
// shallowest first, each depth in declaration order.
func orderedFields(t reflect.Type) []field {
	var fs []field
	seen := map[string]bool{}
	level := []reflect.Type{t}
	for len(level) > 0 {
		var found []field
		var next []reflect.Type
		for _, st := range level {
			for i := range st.NumField() {
				f := st.Field(i)
				tag := f.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if f.Anonymous && name == "" {
					ft := f.Type
					if ft.Kind() == reflect.Pointer {
						ft = ft.Elem()
					}
					if ft.Kind() == reflect.Struct {
						next = append(next, ft)
						continue
					}
				}
				if !f.IsExported() {
					continue
				}
				if name == "" {
					name = f.Name
				}
				if !seen[name] {
					optional := slices.Contains(strings.Split(opts, ","), "omitempty") || slices.Contains(strings.Split(opts, ","), "omitzero")
					found = append(found, field{name: name, t: f.Type, optional: optional})
				}
			}
		}
		for _, f := range found {
			seen[f.name] = true
		}
		fs = append(fs, found...)
		level = next
	}
	return fs
}
