package report

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/codemodekit/kit/conformance"
)

// TestReportJSONDocumented checks that docs/report-json.md has a line for
// every JSON member of conformance.Report and of the types inside it, and
// no member the report does not have.
func TestReportJSONDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "report-json.md"))
	if err != nil {
		t.Fatal(err)
	}
	members := map[string]bool{}
	var walk func(reflect.Type)
	seen := map[reflect.Type]bool{}
	walk = func(ty reflect.Type) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice || ty.Kind() == reflect.Map {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || seen[ty] || ty == reflect.TypeOf(time.Time{}) {
			return
		}
		seen[ty] = true
		for i := 0; i < ty.NumField(); i++ {
			f := ty.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			members[name] = true
			walk(f.Type)
		}
	}
	walk(reflect.TypeOf(conformance.Report{}))
	documented := map[string]bool{}
	row := regexp.MustCompile("(?m)^\\| `([A-Za-z]+)` \\|")
	for _, m := range row.FindAllStringSubmatch(string(doc), -1) {
		documented[m[1]] = true
	}
	// The members of a step and of a mismatch are listed inline.
	inline := regexp.MustCompile("`([A-Za-z]+)`")
	for _, line := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(line, "| `steps` |") || strings.HasPrefix(line, "| `mismatch` |") || strings.HasPrefix(line, "| `scenarios` |") {
			for _, m := range inline.FindAllStringSubmatch(line, -1) {
				documented[m[1]] = true
			}
		}
	}
	var missing, extra []string
	for m := range members {
		if !documented[m] {
			missing = append(missing, m)
		}
	}
	for m := range documented {
		if !members[m] && !strings.Contains("passed failed skipped undefined pending", m) {
			extra = append(extra, m)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 {
		t.Errorf("report.json members without a line in docs/report-json.md: %q", missing)
	}
	if len(extra) > 0 {
		t.Errorf("docs/report-json.md documents members the report does not have: %q", extra)
	}
}
