package checkdocs

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// A codeBlock is one fenced code block.
type codeBlock struct {
	Lang  string // first word of the info string, lower-case
	Fence int    // line of the opening fence
	Text  string // the content; every line ends in "\n"
}

// firstLine is the line of the block's first content line.
func (b codeBlock) firstLine() int { return b.Fence + 1 }

// A doc is a Markdown file split into what the checks need.
type doc struct {
	Path   string // relative to the root, slash-separated
	Lines  []string
	Blocks []codeBlock
	// Code marks the lines (0-based) that belong to a fenced block,
	// fences included.
	Code []bool
	// Unclosed is the line of a fence that is never closed, or 0.
	Unclosed int

	anchors map[string]bool // computed on first use
}

var fenceRE = regexp.MustCompile("^( *)(`{3,}|~{3,})(.*)$")

// parseDoc splits Markdown text into lines, fenced blocks and prose.
func parseDoc(path, text string) *doc {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	d := &doc{Path: path, Lines: strings.Split(strings.TrimSuffix(text, "\n"), "\n")}
	d.Code = make([]bool, len(d.Lines))
	for i := 0; i < len(d.Lines); i++ {
		m := fenceRE.FindStringSubmatch(d.Lines[i])
		if m == nil || (m[2][0] == '`' && strings.Contains(m[3], "`")) {
			continue
		}
		indent, fence := len(m[1]), m[2]
		b := codeBlock{Fence: i + 1}
		if f := strings.Fields(m[3]); len(f) > 0 {
			b.Lang = strings.ToLower(f[0])
		}
		var body strings.Builder
		d.Code[i] = true
		closed := false
		for i++; i < len(d.Lines); i++ {
			d.Code[i] = true
			line := d.Lines[i]
			if isClosingFence(line, fence) {
				closed = true
				break
			}
			body.WriteString(stripIndent(line, indent))
			body.WriteByte('\n')
		}
		if !closed {
			d.Unclosed = b.Fence
		}
		b.Text = body.String()
		d.Blocks = append(d.Blocks, b)
	}
	return d
}

// isClosingFence reports whether line closes a block opened by fence: the
// same character, at least as many, and nothing else but spaces.
func isClosingFence(line, fence string) bool {
	t := strings.TrimSpace(line)
	return len(t) >= len(fence) && strings.Trim(t, fence[:1]) == ""
}

// stripIndent removes up to n leading spaces, the indentation of the fence.
func stripIndent(line string, n int) string {
	for n > 0 && strings.HasPrefix(line, " ") {
		line, n = line[1:], n-1
	}
	return line
}

var (
	atxRE     = regexp.MustCompile(`^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	setextRE  = regexp.MustCompile(`^ {0,3}(?:=+|-+)[ \t]*$`)
	htmlIDRE  = regexp.MustCompile(`<a\s+(?:name|id)="([^"]+)"`)
	mdLinkRE  = regexp.MustCompile(`!?\[((?:[^\]\\]|\\.)*)\]\([^)]*\)`)
	htmlTagRE = regexp.MustCompile(`<[^>]+>`)
)

// Anchors returns the GitHub anchors of the document's headings (and of
// its HTML <a name> or <a id> elements).
func (d *doc) Anchors() map[string]bool {
	if d.anchors != nil {
		return d.anchors
	}
	d.anchors = map[string]bool{}
	seen := map[string]int{}
	addHeading := func(text string) {
		s := Slug(text)
		if n := seen[s]; n > 0 {
			d.anchors[s+"-"+strconv.Itoa(n)] = true
		} else {
			d.anchors[s] = true
		}
		seen[s]++
	}
	for i, line := range d.Lines {
		if d.Code[i] {
			continue
		}
		for _, m := range htmlIDRE.FindAllStringSubmatch(line, -1) {
			d.anchors[m[1]] = true
		}
		if m := atxRE.FindStringSubmatch(line); m != nil {
			addHeading(m[1])
			continue
		}
		// A setext heading: a paragraph line underlined by = or -.
		if i+1 < len(d.Lines) && !d.Code[i+1] && setextRE.MatchString(d.Lines[i+1]) &&
			strings.TrimSpace(line) != "" && !strings.HasPrefix(strings.TrimSpace(line), "|") &&
			!strings.HasPrefix(strings.TrimSpace(line), "-") && !setextRE.MatchString(line) {
			addHeading(strings.TrimSpace(line))
		}
	}
	return d.anchors
}

// Slug returns the GitHub anchor of a heading's Markdown text: the rendered
// text (links become their text; code spans, emphasis and HTML tags their
// content), lower-cased, keeping only letters, marks, digits, "_", "-" and
// spaces, with each space turned into "-".
func Slug(heading string) string {
	heading = mdLinkRE.ReplaceAllString(heading, "$1")
	heading = htmlTagRE.ReplaceAllString(heading, "")
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r) || unicode.Is(unicode.Pc, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// maskCodeSpans replaces every inline code span of line, backticks
// included, with spaces, so prose checks skip quoted text.
func maskCodeSpans(line string) string {
	b := []byte(line)
	for _, sp := range codeSpans(line) {
		for k := sp[0]; k < sp[1]; k++ {
			b[k] = ' '
		}
	}
	return string(b)
}

// codeSpans returns the byte ranges [start, end) of the inline code spans
// of line, backticks included: a run of n backticks up to the next run of
// exactly n.
func codeSpans(line string) [][2]int {
	var spans [][2]int
	for i := 0; i < len(line); {
		if line[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(line) && line[i+n] == '`' {
			n++
		}
		end := -1
		for j := i + n; j < len(line); {
			if line[j] != '`' {
				j++
				continue
			}
			m := 0
			for j+m < len(line) && line[j+m] == '`' {
				m++
			}
			if m == n {
				end = j + m
				break
			}
			j += m
		}
		if end < 0 {
			i += n
			continue
		}
		spans = append(spans, [2]int{i, end})
		i = end
	}
	return spans
}

// A docCache reads each Markdown file once.
type docCache struct {
	root string
	docs map[string]*doc
}

func newDocCache(root string) *docCache { return &docCache{root: root, docs: map[string]*doc{}} }

// get returns the parsed file at path (relative to the root, slash-separated).
func (c *docCache) get(path string) (*doc, error) {
	if d, ok := c.docs[path]; ok {
		return d, nil
	}
	b, err := os.ReadFile(filepath.Join(c.root, filepath.FromSlash(path)))
	if err != nil {
		return nil, err
	}
	d := parseDoc(path, string(b))
	c.docs[path] = d
	return d, nil
}
