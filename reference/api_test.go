package codemode_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// maxExported bounds the exported identifiers of package codemode: what an
// embedder reads in go doc. Counted are the exported constants, variables,
// functions and types, and the exported methods declared on exported types
// (promoted ones included, as go doc shows them). Struct fields and the
// methods of an exported interface belong to their type's declaration and
// are not counted.
const maxExported = 50

// TestAPI_Size counts the package's exported identifiers (exportedIdents)
// and fails above maxExported.
func TestAPI_Size(t *testing.T) {
	fset, files := parseAPI(t, nil)
	got := exportedIdents(t, fset, files)
	t.Logf("package codemode exports %d identifiers (at most %d)", len(got), maxExported)
	if len(got) > maxExported {
		t.Errorf("package codemode exports %d identifiers, at most %d may be (api_test.go):\n%s",
			len(got), maxExported, strings.Join(got, "\n"))
	}
}

// TestAPI_NoInternalTypes fails when an exported signature or an exported
// struct field names a type of an internal package: go doc would show an
// embedder a type it cannot name.
func TestAPI_NoInternalTypes(t *testing.T) {
	fset, files := parseAPI(t, nil)
	if got := internalTypeUses(fset, files); len(got) > 0 {
		t.Errorf("exported declarations name internal types (api_test.go):\n%s", strings.Join(got, "\n"))
	}
}

// TestAPI_planted checks that both checks see what they exist to refuse.
func TestAPI_planted(t *testing.T) {
	fset, files := parseAPI(t, nil)
	base := exportedIdents(t, fset, files)
	planted := `package codemode

import (
	"github.com/codemodekit/kit/reference/internal/cell"
	nss "github.com/codemodekit/kit/reference/internal/nsscope"
)

const PlantedConst, plantedConst = 1, 2

var PlantedVar int

func PlantedFunc() {}

type PlantedStruct struct {
	Runner *cell.Runner
	hidden cell.Scope
	Scope  map[string][]nss.Scope
}

func (PlantedStruct) Method(func(cell.Nested)) {}

func (*Turn) PlantedMethod() (*nss.Tool, error) { return nil, nil }

type PlantedInterface interface {
	Get() cell.Result
	unexported()
}

type plantedHidden struct{}

func (plantedHidden) Hidden(cell.Scope) {}

func plantedHelper(cell.Scope) {}
`
	fset, files = parseAPI(t, map[string]string{"zz_planted.go": planted})
	wantNew := []string{"const PlantedConst", "var PlantedVar", "func PlantedFunc", "type PlantedStruct",
		"method PlantedStruct.Method", "method Turn.PlantedMethod", "type PlantedInterface"}
	var gotNew []string
	for _, id := range exportedIdents(t, fset, files) {
		if !slices.Contains(base, id) {
			gotNew = append(gotNew, id)
		}
	}
	slices.Sort(wantNew)
	slices.Sort(gotNew)
	if diff := cmp.Diff(wantNew, gotNew); diff != "" {
		t.Errorf("exportedIdents with a planted file: new identifiers mismatch (-want +got):\n%s", diff)
	}
	wantInternal := []string{
		"zz_planted.go: field PlantedStruct.Runner names cell.Runner",
		"zz_planted.go: field PlantedStruct.Scope names nss.Scope",
		"zz_planted.go: method PlantedStruct.Method names cell.Nested",
		"zz_planted.go: method Turn.PlantedMethod names nss.Tool",
		"zz_planted.go: method PlantedInterface.Get names cell.Result",
	}
	gotInternal := internalTypeUses(fset, files)
	slices.Sort(wantInternal)
	if diff := cmp.Diff(wantInternal, gotInternal); diff != "" {
		t.Errorf("internalTypeUses with a planted file mismatch (-want +got):\n%s", diff)
	}
}

// parseAPI parses the package's non-test files, and extra files by name.
func parseAPI(t *testing.T, extra map[string]string) (*token.FileSet, []*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	add := func(name string, src any) {
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	for _, e := range entries {
		if name := e.Name(); strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			add(name, nil)
		}
	}
	for name, src := range extra {
		add(name, src)
	}
	return fset, files
}

// exportedIdents lists the exported identifiers as go doc shows them, by
// kind and name ("func New", "method Turn.Call"), sorted.
func exportedIdents(t *testing.T, fset *token.FileSet, files []*ast.File) []string {
	t.Helper()
	p, err := doc.NewFromFiles(fset, files, "github.com/codemodekit/kit/reference")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	values := func(kind string, vs []*doc.Value) {
		for _, v := range vs {
			for _, n := range v.Names {
				if ast.IsExported(n) {
					out = append(out, kind+" "+n)
				}
			}
		}
	}
	funcs := func(fs []*doc.Func) {
		for _, f := range fs {
			out = append(out, "func "+f.Name)
		}
	}
	values("const", p.Consts)
	values("var", p.Vars)
	funcs(p.Funcs)
	for _, ty := range p.Types {
		out = append(out, "type "+ty.Name)
		values("const", ty.Consts)
		values("var", ty.Vars)
		funcs(ty.Funcs)
		for _, m := range ty.Methods {
			out = append(out, "method "+ty.Name+"."+m.Name)
		}
	}
	slices.Sort(out)
	return out
}

// internalTypeUses lists, sorted, where an exported function or method
// signature, an exported struct field, interface method or type
// definition names a type of a package whose path has an internal
// element.
func internalTypeUses(fset *token.FileSet, files []*ast.File) []string {
	var out []string
	for _, f := range files {
		file := filepath.Base(fset.Position(f.Pos()).Filename)
		internal := map[string]bool{} // import names of internal packages
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			name := path.Base(p)
			if imp.Name != nil {
				name = imp.Name.Name
			}
			if strings.Contains("/"+p+"/", "/internal/") {
				internal[name] = true
			}
		}
		check := func(what string, n ast.Node) {
			ast.Inspect(n, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && internal[x.Name] {
						out = append(out, file+": "+what+" names "+x.Name+"."+sel.Sel.Name)
					}
				}
				return true
			})
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				what := "func " + d.Name.Name
				if d.Recv != nil {
					recv := receiverName(d.Recv.List[0].Type)
					if !ast.IsExported(recv) {
						continue
					}
					what = "method " + recv + "." + d.Name.Name
				}
				check(what, d.Type)
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							checkType(s.Name.Name, s.Type, check)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() && s.Type != nil {
								check("value "+n.Name, s.Type)
							}
						}
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// checkType checks the exported parts of the definition of exported type
// name.
func checkType(name string, typ ast.Expr, check func(string, ast.Node)) {
	switch ty := typ.(type) {
	case *ast.StructType:
		for _, f := range ty.Fields.List {
			names := f.Names
			if len(names) == 0 { // embedded: the field has the type's name
				names = []*ast.Ident{ast.NewIdent(receiverName(f.Type))}
			}
			for _, n := range names {
				if n.IsExported() {
					check("field "+name+"."+n.Name, f.Type)
				}
			}
		}
	case *ast.InterfaceType:
		for _, m := range ty.Methods.List {
			for _, n := range m.Names {
				if n.IsExported() {
					check("method "+name+"."+n.Name, m.Type)
				}
			}
			if len(m.Names) == 0 {
				check("interface "+name, m.Type)
			}
		}
	default:
		check("type "+name, typ)
	}
}

// receiverName is the name of the type of a receiver or embedded field.
func receiverName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return receiverName(x.X)
	case *ast.IndexExpr:
		return receiverName(x.X)
	case *ast.IndexListExpr:
		return receiverName(x.X)
	case *ast.SelectorExpr:
		return x.Sel.Name
	case *ast.Ident:
		return x.Name
	}
	return ""
}
