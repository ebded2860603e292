import "server-only";
// Real files for the dry run's Markdown exporters (md_exporter's md_to_<target>), so a predicted output has the size
// and type of the file a user would get: .docx (`docx`) and .pdf (`pdf-lib`) one paragraph per Markdown line, .pptx
// (`pptxgenjs`) a slide per heading, .xlsx/.csv the Markdown's tables (`xlsx`, the app's CSV encoder), .html with
// `marked`, .md and other text targets as text. Cheap by design: the Markdown is clipped first.
import { Document, HeadingLevel, Packer, Paragraph } from "docx";
import { marked } from "marked";
import { PDFDocument, StandardFonts } from "pdf-lib";
import * as XLSX from "xlsx";
import { csvDocument } from "@/lib/csv";
import type { FileMaker, MadeFile } from "@/lib/dry-run/types";
import { exporterMarkdown, markdownTables, MAX_MARKDOWN, type MarkdownTable } from "./markdown-blocks";
import { pptxBytes } from "./slides-file";
const HEADINGS = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3, HeadingLevel.HEADING_4, HeadingLevel.HEADING_5, HeadingLevel.HEADING_6];

function linesOf(markdown: string): { level: number; text: string }[] {
  return markdown.slice(0, MAX_MARKDOWN).split(/\r?\n/).map((line) => {
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    return heading ? { level: (heading[1] ?? "#").length, text: heading[2] ?? "" } : { level: 0, text: line };
  });
}

async function docxBytes(markdown: string): Promise<Uint8Array> {
  const children = linesOf(markdown).map(({ level, text }) => (level > 0 ? new Paragraph({ text, heading: HEADINGS[level - 1] }) : new Paragraph({ text })));
  const document = new Document({ sections: [{ children }] });
  return new Uint8Array(await Packer.toBuffer(document));
}

async function pdfBytes(markdown: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const [width, height, margin] = [595, 842, 50];
  let page = pdf.addPage([width, height]);
  let y = height - margin;
  for (const { level, text } of linesOf(markdown)) {
    const size = level > 0 ? 18 - 2 * Math.min(level, 4) : 11;
    // The standard font writes WinAnsi only; other characters print as "?".
    const words = text.replace(/\t/g, "    ").replace(/[^\x20-\x7E\xA0-\xFF]/g, "?").split(" ");
    let line = "";
    const flush = () => {
      if (y < margin) {
        page = pdf.addPage([width, height]);
        y = height - margin;
      }
      page.drawText(line, { x: margin, y, size, font });
      y -= size * 1.4;
      line = "";
    };
    for (const word of words) {
      const next = line === "" ? word : `${line} ${word}`;
      if (line !== "" && font.widthOfTextAtSize(next, size) > width - 2 * margin) {
        flush();
        line = word;
      } else line = next;
    }
    flush();
  }
  return pdf.save();
}

/** Sheet names Excel accepts (≤ 31 characters, none of []:*?/\\, unique); the plugin's pandas writer would fail on them. Ours. */
function sheetName(table: MarkdownTable, index: number, taken: Set<string>): string {
  const wanted = (table.name ?? "").replace(/[[\]:*?/\\]/g, " ").trim().slice(0, 31) || `Sheet${index + 1}`;
  let name = wanted;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${wanted.slice(0, 27)} (${n})`;
  taken.add(name.toLowerCase());
  return name;
}

function xlsxBytes(tables: readonly MarkdownTable[]): Uint8Array {
  const book = XLSX.utils.book_new();
  const taken = new Set<string>();
  // force_text: every cell is written as text, as md_to_xlsx does by default.
  tables.forEach((table, index) => XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([table.header, ...table.rows], { cellDates: false }), sheetName(table, index, taken)));
  return new Uint8Array(XLSX.write(book, { type: "buffer", bookType: "xlsx", compression: true }) as Buffer);
}

const encoder = new TextEncoder();
const NO_TABLES = "Failed to parse markdown to tables, exception: No available tables parsed from markdown text";

/**
 * The bytes of an exporter's file, or the plugin's failure (a spreadsheet target without a table); null for a target
 * not written here.
 */
export async function exporterFile(extension: string, text: string): Promise<{ bytes: Uint8Array } | { failure: string } | null> {
  const markdown = exporterMarkdown(text);
  switch (extension) {
    case ".docx":
      return { bytes: await docxBytes(markdown) };
    case ".pdf":
      return { bytes: await pdfBytes(markdown) };
    case ".pptx":
      return { bytes: await pptxBytes(markdown) };
    case ".html":
      return { bytes: encoder.encode(marked.parse(markdown, { async: false })) };
    case ".xlsx":
    case ".csv":
    case ".json": {
      const tables = markdownTables(markdown);
      if (tables.length === 0) return { failure: NO_TABLES };
      if (extension === ".xlsx") return { bytes: xlsxBytes(tables) };
      // md_to_csv and md_to_json write one file per table; the dry run's exporter output is one file, the first
      // table's. Ours. JSON is one record per line (the plugin's default "jsonl" style).
      const { header, rows } = tables[0] as MarkdownTable;
      if (extension === ".csv") return { bytes: encoder.encode(csvDocument(header, rows)) };
      return { bytes: encoder.encode(rows.map((row) => JSON.stringify(Object.fromEntries(header.map((name, index) => [name, row[index] ?? ""])))).join("\n")) };
    }
    case ".md":
    case ".tex":
    case ".xml":
    case ".rst":
    case ".txt":
      // .md is the Markdown itself; the plugin converts the others with pandoc or from tables, which is not done here.
      return { bytes: encoder.encode(markdown) };
    default:
      return null;
  }
}

/** The bytes of an exporter's file; null when the target is not written here or the plugin would fail. */
export async function exporterFileBytes(extension: string, markdown: string): Promise<Uint8Array | null> {
  const made = await exporterFile(extension, markdown);
  return made && "bytes" in made ? made.bytes : null;
}

export const exporterFiles: FileMaker = {
  async make({ extension, markdown }): Promise<MadeFile | null> {
    const made = await exporterFile(extension, markdown);
    if (!made) return null;
    return "bytes" in made ? { size: made.bytes.byteLength } : made;
  },
};
