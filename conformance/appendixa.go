package conformance

import (
	"bytes"
	"errors"
	"regexp"
	"strconv"
	"strings"
)

// AppendixA maps each row number of SPEC.md Appendix A (Divergences from
// OpenClaw) to the row.
type AppendixA map[int]AppendixRow

// An AppendixRow is one divergence: its topic, and the clauses it concerns
// (the row's last column).
type AppendixRow struct {
	Topic   string   `json:"topic"`
	Clauses []string `json:"clauses"`
}

var (
	appendixRowRE = regexp.MustCompile(`^\| (\d+) \| ([^|]*) \|.*\| ([^|]*) \|\s*$`)
	clauseRefRE   = regexp.MustCompile(`CM-\d+\.\d+`)
)

// ParseAppendixA reads the rows of Appendix A from the text of SPEC.md.
func ParseAppendixA(spec []byte) (AppendixA, error) {
	_, after, ok := bytes.Cut(spec, []byte("\n## Appendix A."))
	if !ok {
		return nil, errors.New("SPEC.md has no Appendix A")
	}
	if next := bytes.Index(after, []byte("\n## ")); next >= 0 {
		after = after[:next]
	}
	rows := AppendixA{}
	for _, line := range strings.Split(string(after), "\n") {
		m := appendixRowRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		rows[n] = AppendixRow{Topic: strings.TrimSpace(m[2]), Clauses: clauseRefRE.FindAllString(m[3], -1)}
	}
	if len(rows) == 0 {
		return nil, errors.New("SPEC.md Appendix A has no rows")
	}
	return rows, nil
}
