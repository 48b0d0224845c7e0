// Tool Search for the Node harness: Okapi BM25 over each entry's
// "name id label description", after OpenClaw's src/agents/tool-search-ranking.ts
// (k1 1.2, b 0.75, idf ln(1 + (N - n + 0.5) / (n + 0.5)); words split on
// non-letters, lower-cased, underscore and camelCase parts, a light
// stemmer). Simplified: no query expansions, no parameter text, no
// stopword list. The index is built once per catalog, like the
// reference's; a query scores only the entries that share a term.
const SPLIT = /[^\p{L}\p{N}_]+/u;
const PARTS = /\p{Lu}+s?(?![\p{Ll}])|\p{Lu}?\p{Ll}+|\p{N}+/gu;

function stem(w) {
  for (let pass = 0; pass < 3; pass++) {
    const before = w;
    for (const suf of ["ies", "ing", "ed", "ly", "es", "er", "s", "e"]) {
      if (w.endsWith(suf) && w.length - suf.length >= 3) {
        w = suf === "ies" ? w.slice(0, -3) + "y" : w.slice(0, -suf.length);
        break;
      }
    }
    if (w === before) break;
  }
  return w;
}

export function tokens(text) {
  const out = [];
  for (const word of String(text).split(SPLIT)) {
    if (!word) continue;
    out.push(stem(word.toLowerCase()));
    const parts = word.split("_").flatMap((p) => p.match(PARTS) || []);
    if (parts.length >= 2) for (const p of parts) out.push(stem(p.toLowerCase()));
  }
  return out;
}

export function buildIndex(tools) {
  const postings = new Map(); // term -> [[doc, freq], ...]
  const lens = new Array(tools.length);
  let total = 0;
  tools.forEach((t, i) => {
    const ts = tokens([t.name, t.id, t.label || "", t.description || ""].join(" "));
    lens[i] = ts.length;
    total += ts.length;
    const f = new Map();
    for (const x of ts) f.set(x, (f.get(x) || 0) + 1);
    for (const [x, n] of f) {
      let p = postings.get(x);
      if (!p) postings.set(x, (p = []));
      p.push([i, n]);
    }
  });
  return { tools, postings, lens, avg: tools.length ? total / tools.length : 1 };
}

export function search(ix, query, limit) {
  const N = ix.tools.length;
  const scores = new Map();
  for (const term of new Set(tokens(query))) {
    const p = ix.postings.get(term);
    if (!p) continue;
    const idf = Math.log(1 + (N - p.length + 0.5) / (p.length + 0.5));
    for (const [doc, f] of p) {
      const s = (idf * (f * 2.2)) / (f + 1.2 * (1 - 0.75 + (0.75 * ix.lens[doc]) / ix.avg));
      scores.set(doc, (scores.get(doc) || 0) + s);
    }
  }
  const q = String(query).trim().toLowerCase();
  const hits = [...scores].map(([doc, score]) => ({ doc, score, exact: ix.tools[doc].name.toLowerCase() === q || ix.tools[doc].id.toLowerCase() === q }));
  hits.sort((a, b) => (b.exact - a.exact) || (b.score - a.score) || (ix.tools[a.doc].id < ix.tools[b.doc].id ? -1 : 1));
  return hits.slice(0, limit || 8).map((h) => ix.tools[h.doc]);
}
