// build_report holds until codemode calls wait: exec parks the run when its
// deadline (timeoutMs 1000 in fast.json) passes, and wait completes it.
text("building");
const report = await tools.callValue("openclaw:core:build_report", { quarter: "Q3" });
return report;
