// Renders the diagnostic registry as the Markdown reference docs/diagnostics.md, one section per code.
// Deterministic (registry order within category order), so a test can require the committed file to be current.

import { DIAGNOSTIC_CODES, type CodeSpec, type DiagnosticCode } from "./diagnostic-codes";
import { DIAGNOSTIC_CATEGORIES, type DiagnosticCategory } from "./diagnostics";

export const CATEGORY_DESCRIPTIONS: Readonly<Record<DiagnosticCategory, string>> = {
  format: "The response's text, the JSON and the shape of nodes, params and edges: what a schema would reject.",
  graph: "Ids, edges, ports, iteration canvases, start and end nodes, and connectivity.",
  semantics: "References between nodes and the types that flow through them.",
  consistency: "Agreement with the task (its input and output variables and key nodes) and with the node_selection.",
};

/** The registry entries of one category, in registry order. */
export function codesOfCategory(category: DiagnosticCategory): [DiagnosticCode, CodeSpec][] {
  return (Object.entries(DIAGNOSTIC_CODES) as [DiagnosticCode, CodeSpec][]).filter(([, spec]) => spec.category === category);
}

/** The anchor of a code's entry in the reference (the code itself: kebab-case is already a valid fragment). */
export function diagnosticAnchor(code: string): string {
  return code;
}

function inlineCode(text: string): string {
  const fence = text.includes("`") ? "``" : "`";
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

export function renderDiagnosticsDoc(): string {
  const lines: string[] = [
    "# Diagnostics",
    "",
    "Every problem the scoring core reports has a stable code. This page is generated from the registry",
    "(`lib/workflow/diagnostic-codes.ts`) by `npm run docs:diagnostics`; edit the registry, not this file.",
    "",
    "Severity is the default (a check may lower it where the problem is tolerated). The official step is the step",
    "of the official pass stage that fails when this problem is present and no earlier step fails; codes without",
    "one are found by the analysis only and do not change the official verdict.",
    "",
  ];
  for (const category of DIAGNOSTIC_CATEGORIES) {
    const entries = codesOfCategory(category);
    lines.push(`## ${category} (${entries.length})`, "", CATEGORY_DESCRIPTIONS[category], "");
    lines.push("| code | severity | official step | title |", "| --- | --- | --- | --- |");
    for (const [code, spec] of entries) lines.push(`| [${code}](#${diagnosticAnchor(code)}) | ${spec.severity} | ${spec.officialStep ?? "–"} | ${spec.title.replace(/\|/g, "\\|")} |`);
    lines.push("");
    for (const [code, spec] of entries) {
      lines.push(`### ${code}`, "", `**${spec.title}** · ${spec.severity}${spec.officialStep ? ` · fails ${spec.officialStep}` : ""}`, "", spec.doc, "", `Example: ${inlineCode(spec.example)}`, "");
    }
  }
  return `${lines.join("\n").trimEnd()}\n`;
}
