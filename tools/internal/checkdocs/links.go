package checkdocs

import (
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

var (
	// inlineLinkRE matches the target of [text](target "title") and
	// ![alt](target).
	inlineLinkRE = regexp.MustCompile(`\]\(\s*(<[^>]*>|[^()\s]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)`)
	// refDefRE matches a reference definition [label]: target.
	refDefRE = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)`)
	schemeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
)

// checkLinks checks the relative links of d (see the package doc).
func checkLinks(d *doc, cache *docCache, ps *problems) {
	for i, line := range d.Lines {
		if d.Code[i] {
			continue
		}
		prose := maskCodeSpans(line)
		var targets []string
		for _, m := range inlineLinkRE.FindAllStringSubmatch(prose, -1) {
			targets = append(targets, m[1])
		}
		if m := refDefRE.FindStringSubmatch(prose); m != nil {
			targets = append(targets, m[1])
		}
		for _, t := range targets {
			if msg := checkLink(d, strings.TrimSuffix(strings.TrimPrefix(t, "<"), ">"), cache); msg != "" {
				ps.add(d.Path, i+1, "link %s: %s", t, msg)
			}
		}
	}
}

// checkLink resolves one link target of d; it returns "" when the target
// exists (or is not relative) and otherwise what is wrong.
func checkLink(d *doc, target string, cache *docCache) string {
	if target == "" || schemeRE.MatchString(target) || strings.HasPrefix(target, "//") {
		return ""
	}
	p, frag, _ := strings.Cut(target, "#")
	p, _, _ = strings.Cut(p, "?")
	p, err := url.PathUnescape(p)
	if err != nil {
		return "bad escape in the path"
	}
	if frag, err = url.PathUnescape(frag); err != nil {
		return "bad escape in the anchor"
	}
	rel := d.Path
	if p != "" {
		if strings.HasPrefix(p, "/") {
			rel = path.Clean(strings.TrimPrefix(p, "/"))
		} else {
			rel = path.Join(path.Dir(d.Path), p)
		}
	}
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return "leaves the repository"
	}
	info, err := os.Stat(filepath.Join(cache.root, filepath.FromSlash(rel)))
	if err != nil {
		return rel + " does not exist"
	}
	if frag == "" || info.IsDir() || !strings.HasSuffix(strings.ToLower(rel), ".md") {
		return ""
	}
	target2, err := cache.get(rel)
	if err != nil {
		return "cannot read " + rel + ": " + err.Error()
	}
	if !target2.Anchors()[frag] {
		return rel + " has no heading with the anchor #" + frag
	}
	return ""
}
