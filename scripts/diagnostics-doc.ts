// Writes docs/diagnostics.md from the diagnostic registry (`npm run docs:diagnostics`); `--check` exits 1 when the
// committed file is out of date instead of writing it.
import path from "node:path";
import { renderDiagnosticsDoc } from "@/lib/workflow/diagnostics-doc";
import { writeOrCheckGenerated } from "./lib/generated-doc";

writeOrCheckGenerated(path.join(process.cwd(), "docs", "diagnostics.md"), renderDiagnosticsDoc(), "npm run docs:diagnostics");
