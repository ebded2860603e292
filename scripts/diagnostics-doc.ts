// Writes docs/diagnostics.md from the diagnostic registry (`npm run docs:diagnostics`); `--check` exits 1 when the
// committed file is out of date instead of writing it.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { renderDiagnosticsDoc } from "@/lib/workflow/diagnostics-doc";

const target = path.join(process.cwd(), "docs", "diagnostics.md");
const text = renderDiagnosticsDoc();
if (process.argv.includes("--check")) {
  let current = "";
  try {
    current = readFileSync(target, "utf8");
  } catch {
    // a missing file is out of date
  }
  if (current !== text) {
    console.error("docs/diagnostics.md is out of date: run npm run docs:diagnostics");
    process.exitCode = 1;
  }
} else {
  writeFileSync(target, text);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
