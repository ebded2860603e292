// Worker thread of the case-file reader (document-reader.ts): parses one untrusted file per message with unpdf,
// mammoth or xlsx and answers its text, or the failure worded as Dify's document extractor words it.
import { parentPort } from "node:worker_threads";
import { extractText, getDocumentProxy } from "unpdf";
import mammoth from "mammoth";
import * as XLSX from "xlsx";

/** Rows as a Markdown table, header first, as Dify turns CSV and spreadsheets into text. */
function markdownTable(rows) {
  if (rows.length === 0) return "";
  const width = Math.max(...rows.map((row) => row.length));
  const cells = (row) => Array.from({ length: width }, (_, index) => String(row[index] ?? "").replace(/\|/g, "\\|").replace(/\r?\n/g, " "));
  const lines = [`| ${cells(rows[0]).join(" | ")} |`, `| ${Array(width).fill("---").join(" | ")} |`];
  for (const row of rows.slice(1)) lines.push(`| ${cells(row).join(" | ")} |`);
  return lines.join("\n");
}

function sheetRows(workbook) {
  const first = workbook.SheetNames[0];
  if (first === undefined) throw new Error("the workbook has no sheet");
  const rows = XLSX.utils.sheet_to_json(workbook.Sheets[first], { header: 1, raw: false, defval: "", blankrows: false });
  return rows.filter((row) => row.some((cell) => String(cell).trim() !== ""));
}

async function extract(extension, bytes) {
  switch (extension) {
    case ".txt": case ".markdown": case ".md": case ".html": case ".htm": case ".xml":
      try {
        return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch {
        throw new Error("Failed to decode plain text file");
      }
    case ".json":
      try {
        return JSON.stringify(JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)), null, 2);
      } catch (error) {
        throw new Error(`Failed to decode or parse JSON file: ${error.message}`);
      }
    case ".pdf":
      try {
        const pdf = await getDocumentProxy(bytes, { verbosity: 0, isEvalSupported: false });
        const { text } = await extractText(pdf, { mergePages: true });
        return text;
      } catch (error) {
        throw new Error(`Failed to extract text from PDF: ${error.message}`);
      }
    case ".doc": case ".docx":
      try {
        return (await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value;
      } catch (error) {
        throw new Error(`Failed to extract text from DOC/DOCX: ${error.message}`);
      }
    case ".csv":
      try {
        return markdownTable(sheetRows(XLSX.read(new TextDecoder("utf-8", { fatal: true }).decode(bytes), { type: "string", raw: true })));
      } catch (error) {
        throw new Error(`Failed to extract text from CSV: ${error.message}`);
      }
    case ".xls": case ".xlsx":
      try {
        return markdownTable(sheetRows(XLSX.read(bytes, { type: "array" })));
      } catch (error) {
        throw new Error(`Failed to extract text from Excel file: ${error.message}`);
      }
    default:
      return null;
  }
}

parentPort.on("message", async ({ id, extension, bytes }) => {
  try {
    const text = await extract(extension, bytes);
    parentPort.postMessage(text === null ? { id, unread: true } : { id, ok: true, text });
  } catch (error) {
    parentPort.postMessage({ id, ok: false, reason: error instanceof Error ? error.message : String(error) });
  }
});
