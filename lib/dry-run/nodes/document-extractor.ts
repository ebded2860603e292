// Document extractor: the input must be a file or a file list, and each file's extension one Dify can read
// (nodes/document_extractor/node.py, _extract_text_by_file_extension); an image fails with "Unsupported Extension Type".
// Outputs `text` (a list of texts for a file list): the case file's real text when a reader is given (a parser failure
// fails the node, as Dify's TextExtractionError does), else a stand-in.

import type { JsonValue } from "@/lib/workflow/python-values";
import { failed, selectorOf, succeeded, type DocumentReader, type DocumentText, type NodeExecutor } from "../types";
import { isDryFile, type DryFile } from "../values";

const READABLE = new Set([
  ".txt", ".markdown", ".md", ".mdx", ".html", ".htm", ".xml", ".vtt", ".json", ".yaml", ".yml", ".pdf", ".doc", ".docx",
  ".csv", ".xls", ".xlsx", ".ppt", ".pptx", ".epub", ".eml", ".msg", ".properties",
  ".c", ".h", ".cpp", ".hpp", ".cc", ".py", ".js", ".ts", ".java", ".go", ".rs", ".sql", ".sh", ".css",
]);

async function extract(file: DryFile, documents: DocumentReader | null): Promise<DocumentText & { mocked: boolean }> {
  if (!READABLE.has(file.extension.toLowerCase())) return { ok: false, reason: `Unsupported Extension Type: ${file.extension}`, mocked: false };
  const read = documents ? await documents.read(file) : null;
  return read ? { ...read, mocked: false } : { ok: true, text: `[text of ${file.filename}]`, mocked: true };
}

export const documentExtractorExecutor: NodeExecutor = {
  async run(data, ctx) {
    const selector = selectorOf(data.variable_selector);
    const found = selector ? ctx.pool.get(selector) : undefined;
    if (!found) return failed(`File variable not found for selector: ${JSON.stringify(selector)}`, !ctx.pool.missingVariable(selector ?? []).certain);
    const value = found.value;
    if (isDryFile(value)) {
      const text = await extract(value, ctx.documents);
      return text.ok ? succeeded({ text: text.text }, found.mocked || text.mocked) : failed(text.reason, found.mocked || text.ourLimit === true);
    }
    if (Array.isArray(value) && value.every((item) => isDryFile(item))) {
      const texts: JsonValue[] = [];
      let mocked = found.mocked;
      for (const file of value as DryFile[]) {
        const text = await extract(file, ctx.documents);
        if (!text.ok) return failed(text.reason, found.mocked || text.ourLimit === true);
        texts.push(text.text);
        mocked ||= text.mocked;
      }
      return succeeded({ text: texts }, mocked);
    }
    if (value === null) return succeeded({ text: "" }, found.mocked);
    // A node's output type does not depend on its content (an LLM's text is always a string).
    return failed(`Variable ${JSON.stringify(selector)} is not a file or a list of files.`);
  },
};
