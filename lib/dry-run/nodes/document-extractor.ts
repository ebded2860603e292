// Document extractor: the input must be a file or a file list, and each file's extension one Dify can read
// (nodes/document_extractor/node.py, _extract_text_by_file_extension); an image fails with "Unsupported Extension Type".
// Outputs `text` (a list of texts for a file list). The text is a stand-in: the files are not read in a dry run.

import type { JsonValue } from "@/lib/workflow/python-values";
import { failed, selectorOf, succeeded, type NodeExecutor } from "../types";
import { isDryFile, type DryFile } from "../values";

const READABLE = new Set([
  ".txt", ".markdown", ".md", ".mdx", ".html", ".htm", ".xml", ".vtt", ".json", ".yaml", ".yml", ".pdf", ".doc", ".docx",
  ".csv", ".xls", ".xlsx", ".ppt", ".pptx", ".epub", ".eml", ".msg", ".properties",
  ".c", ".h", ".cpp", ".hpp", ".cc", ".py", ".js", ".ts", ".java", ".go", ".rs", ".sql", ".sh", ".css",
]);

function extract(file: DryFile): { ok: true; text: string } | { ok: false; reason: string } {
  if (!READABLE.has(file.extension.toLowerCase())) return { ok: false, reason: `Unsupported Extension Type: ${file.extension}` };
  return { ok: true, text: `[text of ${file.filename}]` };
}

export const documentExtractorExecutor: NodeExecutor = {
  async run(data, ctx) {
    const selector = selectorOf(data.variable_selector);
    const found = selector ? ctx.pool.get(selector) : undefined;
    if (!found) return failed(`File variable not found for selector: ${JSON.stringify(selector)}`, !ctx.pool.missingVariable(selector ?? []).certain);
    const value = found.value;
    if (isDryFile(value)) {
      const text = extract(value);
      return text.ok ? succeeded({ text: text.text }, true) : failed(text.reason, found.mocked);
    }
    if (Array.isArray(value) && value.every((item) => isDryFile(item))) {
      const texts: JsonValue[] = [];
      for (const file of value as DryFile[]) {
        const text = extract(file);
        if (!text.ok) return failed(text.reason, found.mocked);
        texts.push(text.text);
      }
      return succeeded({ text: texts }, true);
    }
    if (value === null) return succeeded({ text: "" }, found.mocked);
    // A node's output type does not depend on its content (an LLM's text is always a string).
    return failed(`Variable ${JSON.stringify(selector)} is not a file or a list of files.`);
  },
};
