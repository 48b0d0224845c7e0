package checkdocs

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
)

// A Setting is one numeric setting of the reference, read from a
// Field{Name, Default, Range} literal of its config package.
type Setting struct {
	Name     string
	Default  int64
	Min, Max int64
	Line     int // of the literal in config.go
}

// A configSource is what the check reads from the reference's config.go.
type configSource struct {
	fields []Setting
	// named values: the constants Runtime and Mode and the variable
	// Languages, as Go values (string, []string).
	named map[string]any
	lines map[string]int
}

// namedRows maps the table rows that are not numeric settings to the
// identifier of config.go that holds their default.
var namedRows = map[string]string{"runtime": "Runtime", "mode": "Mode", "languages": "Languages"}

var (
	codeSpanRE = regexp.MustCompile("^`([^`]*)`$")
	rangeRE    = regexp.MustCompile("^`([^`]+)`\\s*[-\u2013]\\s*`([^`]+)`$")
)

// checkConfig compares the configuration table of SPEC.md section 2.1 with
// the reference's config.go (see the package doc).
func checkConfig(root string, s *specDoc, ps *problems) {
	t, headLine := s.sectionTable(specConfigSect)
	if t == nil {
		line := headLine
		ps.add(SpecPath, line, "no configuration table in section %s", specConfigSect)
		return
	}
	colField, colDefault, colRange := t.col("field"), t.col("default"), t.col("range")
	if colField < 0 || colDefault < 0 || colRange < 0 {
		ps.add(SpecPath, t.Rows[0].Line-2, "the configuration table needs the columns field, default and range")
		return
	}
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(ConfigPath)))
	if err != nil {
		ps.add(ConfigPath, 0, "cannot read: %v", err)
		return
	}
	cfg := parseConfigSource(string(src), ps)
	if cfg == nil {
		return
	}
	byName := map[string]Setting{}
	for _, f := range cfg.fields {
		byName[f.Name] = f
	}
	inTable := map[string]bool{}
	for _, row := range t.Rows {
		if len(row.Cells) <= max(colField, colDefault, colRange) {
			ps.add(SpecPath, row.Line, "configuration table row has %d cells, want %d", len(row.Cells), len(t.Header))
			continue
		}
		name := unquoteCode(row.Cells[colField])
		inTable[name] = true
		def, rng := row.Cells[colDefault], row.Cells[colRange]
		if id, ok := namedRows[name]; ok {
			checkNamedRow(name, id, def, row.Line, cfg, ps)
			continue
		}
		defText := unquoteCode(def)
		want, err := strconv.ParseInt(defText, 10, 64)
		if err != nil {
			continue // enabled, or another setting without a numeric default
		}
		f, ok := byName[name]
		if !ok {
			ps.add(SpecPath, row.Line, "%s: no Field{Name: %q} in %s", name, name, ConfigPath)
			continue
		}
		if want != f.Default {
			ps.add(SpecPath, row.Line, "%s: default %d, but %s:%d has %d", name, want, ConfigPath, f.Line, f.Default)
		}
		m := rangeRE.FindStringSubmatch(rng)
		if m == nil {
			ps.add(SpecPath, row.Line, "%s: range %q is not of the form `min`-`max`", name, rng)
			continue
		}
		for i, bound := range []struct {
			name string
			code int64
		}{{"minimum", f.Min}, {"maximum", f.Max}} {
			text := m[i+1]
			v, err := strconv.ParseInt(text, 10, 64)
			if err != nil {
				other, ok := byName[text]
				if !ok {
					ps.add(SpecPath, row.Line, "%s: range %s %q is neither a number nor a setting", name, bound.name, text)
					continue
				}
				// A bound that names a setting is that setting's largest value.
				v = other.Max
				text = fmt.Sprintf("%s (at most %d)", text, v)
			}
			if v != bound.code {
				ps.add(SpecPath, row.Line, "%s: range %s %s, but %s:%d has %d", name, bound.name, text, ConfigPath, f.Line, bound.code)
			}
		}
	}
	for _, f := range cfg.fields {
		if !inTable[f.Name] {
			ps.add(ConfigPath, f.Line, "setting %s has no row in the configuration table of %s section %s", f.Name, SpecPath, specConfigSect)
		}
	}
}

// checkNamedRow compares a row whose default is JSON text with a named
// value of config.go.
func checkNamedRow(name, id, cell string, line int, cfg *configSource, ps *problems) {
	code, ok := cfg.named[id]
	if !ok {
		ps.add(SpecPath, line, "%s: %s has no %s", name, ConfigPath, id)
		return
	}
	var doc any
	if err := json.Unmarshal([]byte(unquoteCode(cell)), &doc); err != nil {
		ps.add(SpecPath, line, "%s: default %s is not JSON text: %v", name, cell, err)
		return
	}
	var codeJSON any
	b, _ := json.Marshal(code)
	_ = json.Unmarshal(b, &codeJSON)
	if !reflect.DeepEqual(doc, codeJSON) {
		ps.add(SpecPath, line, "%s: default %s, but %s:%d has %s = %s", name, unquoteCode(cell), ConfigPath, cfg.lines[id], id, b)
	}
}

// unquoteCode returns the content of a cell that is one code span, or the
// cell itself.
func unquoteCode(cell string) string {
	if m := codeSpanRE.FindStringSubmatch(strings.TrimSpace(cell)); m != nil {
		return m[1]
	}
	return strings.TrimSpace(cell)
}

// parseConfigSource reads the Field literals, the Runtime and Mode
// constants and the Languages variable of config.go. It returns nil, after
// reporting why, when it cannot read the Field literals.
func parseConfigSource(src string, ps *problems) *configSource {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, ConfigPath, src, parser.SkipObjectResolution)
	if err != nil {
		var list scanner.ErrorList
		if errors.As(err, &list) && len(list) > 0 {
			ps.add(ConfigPath, list[0].Pos.Line, "does not parse: %s", list[0].Msg)
		} else {
			ps.add(ConfigPath, 0, "does not parse: %v", err)
		}
		return nil
	}
	cfg := &configSource{named: map[string]any{}, lines: map[string]int{}}
	ev := evaluator{exprs: map[string]ast.Expr{}}
	// Package-level constants and single-valued variables, for references.
	for _, decl := range file.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || (gd.Tok != token.CONST && gd.Tok != token.VAR) {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if i < len(vs.Values) {
					ev.exprs[n.Name] = vs.Values[i]
					cfg.lines[n.Name] = fset.Position(n.Pos()).Line
				}
			}
		}
	}
	readAll := true
	ast.Inspect(file, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		if id, ok := lit.Type.(*ast.Ident); !ok || id.Name != "Field" {
			return true
		}
		f, err := ev.field(lit)
		f.Line = fset.Position(lit.Pos()).Line
		if err != nil {
			ps.add(ConfigPath, f.Line, "cannot read this Field literal: %v", err)
			readAll = false
			return false
		}
		cfg.fields = append(cfg.fields, f)
		return false
	})
	if !readAll {
		return nil
	}
	if len(cfg.fields) == 0 {
		ps.add(ConfigPath, 0, "no Field{Name: ..., Default: ..., Range: Range{min, max}} literal")
		return nil
	}
	for _, id := range []string{"Runtime", "Mode"} {
		if e, ok := ev.exprs[id]; ok {
			if v, err := ev.str(e, 0); err == nil {
				cfg.named[id] = v
			}
		}
	}
	if lit, ok := ev.exprs["Languages"].(*ast.CompositeLit); ok {
		langs := []string{}
		for _, e := range lit.Elts {
			v, err := ev.str(e, 0)
			if err != nil {
				ps.add(ConfigPath, cfg.lines["Languages"], "cannot read Languages: %v", err)
				return nil
			}
			langs = append(langs, v)
		}
		cfg.named["Languages"] = langs
	}
	return cfg
}

// An evaluator computes constant expressions of config.go.
type evaluator struct {
	exprs map[string]ast.Expr // package-level names
}

// field reads Field{Name: "x", Default: n, Range: Range{min, max}}.
func (ev evaluator) field(lit *ast.CompositeLit) (Setting, error) {
	var f Setting
	seen := map[string]bool{}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return f, fmt.Errorf("Field literal without keys")
		}
		key, _ := kv.Key.(*ast.Ident)
		if key == nil {
			return f, fmt.Errorf("Field literal with a computed key")
		}
		seen[key.Name] = true
		var err error
		switch key.Name {
		case "Name":
			f.Name, err = ev.str(kv.Value, 0)
		case "Default":
			f.Default, err = ev.int(kv.Value, 0)
		case "Range":
			f.Min, f.Max, err = ev.rng(kv.Value)
		}
		if err != nil {
			return f, fmt.Errorf("%s: %v", key.Name, err)
		}
	}
	for _, k := range []string{"Name", "Default", "Range"} {
		if !seen[k] {
			return f, fmt.Errorf("Field literal without %s", k)
		}
	}
	return f, nil
}

// rng reads Range{min, max} or Range{Min: min, Max: max}.
func (ev evaluator) rng(e ast.Expr) (lo, hi int64, err error) {
	lit, ok := e.(*ast.CompositeLit)
	if !ok || len(lit.Elts) != 2 {
		return 0, 0, fmt.Errorf("want a Range{min, max} literal")
	}
	vals := [2]ast.Expr{lit.Elts[0], lit.Elts[1]}
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			switch key, _ := kv.Key.(*ast.Ident); {
			case key != nil && key.Name == "Min":
				vals[0] = kv.Value
			case key != nil && key.Name == "Max":
				vals[1] = kv.Value
			default:
				return 0, 0, fmt.Errorf("unknown Range key")
			}
		}
	}
	if lo, err = ev.int(vals[0], 0); err != nil {
		return 0, 0, err
	}
	hi, err = ev.int(vals[1], 0)
	return lo, hi, err
}

func (ev evaluator) int(e ast.Expr, depth int) (int64, error) {
	v, err := ev.value(e, depth)
	if err != nil {
		return 0, err
	}
	v = constant.ToInt(v)
	n, ok := constant.Int64Val(v)
	if v.Kind() != constant.Int || !ok {
		return 0, fmt.Errorf("%s is not an integer constant", v)
	}
	return n, nil
}

func (ev evaluator) str(e ast.Expr, depth int) (string, error) {
	v, err := ev.value(e, depth)
	if err != nil {
		return "", err
	}
	if v.Kind() != constant.String {
		return "", fmt.Errorf("%s is not a string constant", v)
	}
	return constant.StringVal(v), nil
}

// value evaluates a constant expression of literals, operators and
// package-level names.
func (ev evaluator) value(e ast.Expr, depth int) (constant.Value, error) {
	if depth > 32 {
		return nil, fmt.Errorf("constant expression nests too deep")
	}
	switch e := e.(type) {
	case *ast.BasicLit:
		v := constant.MakeFromLiteral(e.Value, e.Kind, 0)
		if v.Kind() == constant.Unknown {
			return nil, fmt.Errorf("bad literal %s", e.Value)
		}
		return v, nil
	case *ast.ParenExpr:
		return ev.value(e.X, depth+1)
	case *ast.Ident:
		x, ok := ev.exprs[e.Name]
		if !ok {
			return nil, fmt.Errorf("unknown name %s", e.Name)
		}
		return ev.value(x, depth+1)
	case *ast.UnaryExpr:
		x, err := ev.value(e.X, depth+1)
		if err != nil {
			return nil, err
		}
		if e.Op != token.ADD && e.Op != token.SUB && e.Op != token.XOR {
			return nil, fmt.Errorf("unsupported operator %s", e.Op)
		}
		return constant.UnaryOp(e.Op, x, 0), nil
	case *ast.BinaryExpr:
		x, err := ev.value(e.X, depth+1)
		if err != nil {
			return nil, err
		}
		y, err := ev.value(e.Y, depth+1)
		if err != nil {
			return nil, err
		}
		num := func(v constant.Value) bool { return v.Kind() == constant.Int || v.Kind() == constant.Float }
		switch {
		case e.Op == token.SHL || e.Op == token.SHR:
			if x.Kind() != constant.Int || !num(y) {
				return nil, fmt.Errorf("bad shift")
			}
		case e.Op == token.ADD && x.Kind() == constant.String && y.Kind() == constant.String:
		case e.Op == token.REM || e.Op == token.AND || e.Op == token.OR || e.Op == token.XOR || e.Op == token.AND_NOT:
			if x.Kind() != constant.Int || y.Kind() != constant.Int {
				return nil, fmt.Errorf("operator %s needs integers", e.Op)
			}
		case !num(x) || !num(y):
			return nil, fmt.Errorf("operator %s needs numbers", e.Op)
		}
		switch e.Op {
		case token.SHL, token.SHR:
			s, ok := constant.Uint64Val(constant.ToInt(y))
			if !ok || s > 63 {
				return nil, fmt.Errorf("bad shift count")
			}
			return constant.Shift(x, e.Op, uint(s)), nil
		case token.ADD, token.SUB, token.MUL, token.REM, token.AND, token.OR, token.XOR, token.AND_NOT:
			return constant.BinaryOp(x, e.Op, y), nil
		case token.QUO:
			if constant.Sign(y) == 0 {
				return nil, fmt.Errorf("division by zero")
			}
			if x.Kind() == constant.Int && y.Kind() == constant.Int {
				return constant.BinaryOp(x, token.QUO_ASSIGN, y), nil // integer division
			}
			return constant.BinaryOp(x, token.QUO, y), nil
		}
		return nil, fmt.Errorf("unsupported operator %s", e.Op)
	}
	return nil, fmt.Errorf("unsupported expression %T", e)
}
