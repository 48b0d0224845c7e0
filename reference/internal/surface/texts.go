package surface

// The model-visible texts, byte-exact (SPEC.md chapter 4). They follow
// OpenClaw 2026.8.1-beta.1 without its nodes line and skills sentence.
const (
	// CodeDescription describes exec's code field.
	CodeDescription = "Required JS/TS; no Python, shell, `require`, `import`. Use explicit `return value`; a trailing expression is discarded and yields `null`. Use `callValue`, not `call`, for data; `call` wraps it under `.result`. Core text reads: `{kind:\"text\",content:string}`; use `.content`. Unknown format: return it first, then parse it in a later exec; never guess separators. Example: `const file=await tools.callValue(\"openclaw:core:read\", { path: \"notes.txt\" }); if(file.kind!==\"text\") return file; return file.content;`. Use exact ids from `ALL_TOOLS` or `tools.search(query)`; never invent ids or parallelize dependent calls."
	// LanguageDescription describes exec's language field.
	LanguageDescription = "Source language. Must be \"javascript\" or \"typescript\". Defaults to javascript."
	// RestartSafeDescription describes exec's restartSafe field.
	RestartSafeDescription = "Set true only when every catalog call is explicitly replay-safe and OpenClaw may reconstruct the work after a gateway restart. Leave unset for ordinary calls; true rejects unmarked, side-effecting, or namespace tool calls."
	// WaitDescription is wait's tool description.
	WaitDescription = "Resume a suspended OpenClaw code mode run returned by exec."
	// RunIDDescription describes wait's runId field.
	RunIDDescription = "Code mode run id returned by exec."

	// BaseDescription opens exec's description.
	BaseDescription = "Run JavaScript or TypeScript in OpenClaw code mode. Use `return` to pass the final value back; otherwise the result is `null`. Quick-index arrows show trusted declared output hints; `-> ?` means never guess result field names. For declared fields, process them in the first exec; do not spend another exec inspecting them. Perform dependent reads, checks, and follow-up calls in order; parallelize independent work only. For an unknown output, including a final dependent call after declared-output calls, return the raw tool value unchanged; do not wrap it in the requested answer shape or guess fields; filter or map it only in a later exec. Nested calls enforce normal tool policy and approvals. `ALL_TOOLS` is the complete compact catalog. Select exact ids directly or with `tools.search(query: string, options?)`; use `tools.describe(id: string)` only when needed. Never invent or transform a tool id. `tools.callValue(id: string, args?)` returns its JSON value directly; `tools.call(id: string, args?)` preserves `{ tool, result }`. Example: `const hit = ALL_TOOLS.find((entry) => entry.description.includes('weather')) ?? (await tools.search('weather'))[0]; return await tools.callValue(hit.id, {});`. Node.js modules and `require`/`import` are NOT available; use enabled catalog tools allowed by policy for shell, file, network, or external actions."
	// APISentence follows when the catalog has MCP entries or Swarm is on.
	APISentence = " Read TypeScript-style declaration files with `API.list(prefix?)` and `API.read(path)`."
	// MCPSentence follows when the catalog has MCP entries.
	MCPSentence = " MCP tools are available only through the `MCP` namespace."
	// SwarmSentence follows when Swarm is on.
	SwarmSentence = " Swarm globals `agents.run`, `phase`, and `log` are available; read `agents.d.ts` for types and orchestration idioms."
	// LanguageSentence always closes the sentences.
	LanguageSentence = " The `language` field accepts only \"javascript\" or \"typescript\"; do not pass \"bash\", \"shell\", or other values. The `code` field contains JavaScript or TypeScript, never a shell command. For shell or file operations, call the exact catalog tool from guest JavaScript; do not retry failed shell source."

	// IndexHeading opens the quick index.
	IndexHeading = "OpenClaw/plugin tool quick index (exact ids; descriptions are intentionally deferred):\nEach line is `id input -> output`; `-> ?` means unknown.\nOUTPUT DECLARED RULE: use declared fields for dependent calls in the first exec.\nOUTPUT UNKNOWN RULE: return the raw tool value unchanged; inspect or map it only in a later exec."
	// IndexFooterAll closes a quick index that omits nothing.
	IndexFooterAll = "Use these exact ids with tools.callValue; use ALL_TOOLS or tools.search inside exec when lookup is ambiguous."
	// IndexFooterOmitted closes a quick index that omits entries; %d is their count.
	IndexFooterOmitted = "%d additional OpenClaw/plugin tools omitted from this prompt index. Use ALL_TOOLS or tools.search inside exec to find them."
	// IndexBudget bounds the whole quick index block, in characters.
	IndexBudget = 8000
)
