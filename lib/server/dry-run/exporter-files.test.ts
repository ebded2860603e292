// The exporters' files are real: each written file opens in the reader of its type (the dry run's own readers, the
// `xlsx` reader, a zip reader), and hostile Markdown stays bounded.
import { inflateRawSync } from "node:zlib";
import mammoth from "mammoth";
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import * as XLSX from "xlsx";
import { exporterFile, exporterFileBytes, exporterFiles } from "./exporter-files";
import { exporterMarkdown, markdownTables, MAX_MARKDOWN } from "./markdown-blocks";
import { MAX_SLIDES, slidesOf } from "./slides-file";

const markdown = "# Quarterly report\n\nSales rose in the North.\n\n## Outlook\n\n北 region: steady.";
const tabular = "# Sales by region\n\n| Region | Sales |\n|---|---|\n| North | **12** |\n| South | =1+1 |\n\n## Staff\n\n| Name | Role |\n|---|---|\n| Ana | Lead |\n";

/** The entries of a zip archive (stored or deflated), read from its central directory. */
function unzip(bytes: Uint8Array): Map<string, string> {
  const buffer = Buffer.from(bytes);
  const end = buffer.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const entries = new Map<string, string>();
  let pointer = buffer.readUInt32LE(end + 16);
  for (let i = 0; i < buffer.readUInt16LE(end + 10); i++) {
    const method = buffer.readUInt16LE(pointer + 10);
    const compressed = buffer.readUInt32LE(pointer + 20);
    const nameLength = buffer.readUInt16LE(pointer + 28);
    const name = buffer.subarray(pointer + 46, pointer + 46 + nameLength).toString("utf8");
    const local = buffer.readUInt32LE(pointer + 42);
    const start = local + 30 + buffer.readUInt16LE(local + 26) + buffer.readUInt16LE(local + 28);
    const data = buffer.subarray(start, start + compressed);
    entries.set(name, (method === 8 ? inflateRawSync(data) : data).toString("utf8"));
    pointer += 46 + nameLength + buffer.readUInt16LE(pointer + 30) + buffer.readUInt16LE(pointer + 32);
  }
  return entries;
}

const text = (bytes: Uint8Array | null) => new TextDecoder().decode(bytes ?? new Uint8Array());

describe("exporter files", () => {
  it("writes a .docx that holds the Markdown's text", async () => {
    const bytes = await exporterFileBytes(".docx", markdown);
    expect(Buffer.from(bytes ?? []).subarray(0, 2).toString()).toBe("PK");
    const docText = (await mammoth.extractRawText({ buffer: Buffer.from(bytes ?? []) })).value;
    expect(docText).toContain("Quarterly report");
    expect(docText).toContain("北 region: steady.");
  });

  it("writes a .pdf that holds the Markdown's text, other scripts as ?", async () => {
    const bytes = await exporterFileBytes(".pdf", markdown);
    expect(Buffer.from(bytes ?? []).subarray(0, 5).toString()).toBe("%PDF-");
    const { text: pdfText } = await extractText(await getDocumentProxy(new Uint8Array(bytes ?? []), { verbosity: 0 }), { mergePages: true });
    expect(pdfText).toContain("Sales rose in the North.");
    expect(pdfText).toContain("? region: steady.");
  });

  it("writes a .pptx, a zip holding ppt/presentation.xml, with a slide per heading titled by it", async () => {
    const entries = unzip((await exporterFileBytes(".pptx", `Intro line\n\n${markdown}\n\n- first point\n- second point`)) ?? new Uint8Array());
    expect(entries.has("ppt/presentation.xml")).toBe(true);
    const slides = [...entries.keys()].filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name)).sort();
    expect(slides).toEqual(["ppt/slides/slide1.xml", "ppt/slides/slide2.xml", "ppt/slides/slide3.xml"]);
    expect(entries.get("ppt/slides/slide1.xml")).toContain("Intro line");
    expect(entries.get("ppt/slides/slide2.xml")).toContain("Quarterly report");
    expect(entries.get("ppt/slides/slide3.xml")).toContain("Outlook");
    expect(entries.get("ppt/slides/slide3.xml")).toContain("second point");
  });

  it("writes the Markdown's tables as .xlsx sheets named after the headings, cells as text", async () => {
    const book = XLSX.read((await exporterFileBytes(".xlsx", tabular)) ?? new Uint8Array(), { type: "array" });
    expect(book.SheetNames).toEqual(["Sales by region", "Staff"]);
    const rows = XLSX.utils.sheet_to_json<string[]>(book.Sheets["Sales by region"] as XLSX.WorkSheet, { header: 1 });
    expect(rows).toEqual([["Region", "Sales"], ["North", "12"], ["South", "=1+1"]]);
    expect(XLSX.utils.sheet_to_json<string[]>(book.Sheets.Staff as XLSX.WorkSheet, { header: 1 })).toEqual([["Name", "Role"], ["Ana", "Lead"]]);
  });

  it("writes the first table as .csv (formulas defused as the app's CSV does) and as JSON lines", async () => {
    expect(text(await exporterFileBytes(".csv", tabular))).toBe("Region,Sales\r\nNorth,12\r\nSouth,'=1+1\r\n");
    expect(text(await exporterFileBytes(".json", tabular)).split("\n").map((line) => JSON.parse(line) as unknown)).toEqual([{ Region: "North", Sales: "12" }, { Region: "South", Sales: "=1+1" }]);
  });

  it("fails a spreadsheet target without a table, as the plugin does", async () => {
    expect(await exporterFile(".xlsx", markdown)).toEqual({ failure: expect.stringContaining("No available tables parsed from markdown text") });
    expect(await exporterFiles.make({ extension: ".csv", markdown: "no table here" })).toEqual({ failure: expect.stringContaining("No available tables") });
  });

  it("writes .html with marked and .md as the Markdown the plugin keeps (wrapper and think tags dropped)", async () => {
    const html = text(await exporterFileBytes(".html", tabular));
    expect(html).toContain("<h1>Sales by region</h1>");
    expect(html).toContain("<td>North</td>");
    const md = text(await exporterFileBytes(".md", "<think>plan</think>```markdown\n# Title\\nBody\n```"));
    expect(md).toBe("\n# Title\nBody\n");
  });

  it("sizes the file it writes and leaves targets it does not know unwritten", async () => {
    const made = await exporterFiles.make({ extension: ".pdf", markdown });
    expect(made).toEqual({ size: (await exporterFileBytes(".pdf", markdown))?.byteLength });
    expect(await exporterFiles.make({ extension: ".svg", markdown })).toBeNull();
  });
});

describe("hostile Markdown", () => {
  it("clips megabytes of text before any writer reads it", async () => {
    const huge = `# <script>alert(1)</script>\n\n${"| a | b |\n|---|---|\n| 1 | 2 |\n".repeat(200_000)}`;
    expect(exporterMarkdown(huge).length).toBeLessThanOrEqual(MAX_MARKDOWN);
    const tables = markdownTables(exporterMarkdown(huge));
    expect(tables.length).toBeGreaterThan(0);
    expect(tables[0]?.name).toBe("<script>alert(1)</script>");
    const bytes = await exporterFileBytes(".xlsx", huge);
    // Excel forbids "/" in sheet names.
    expect(XLSX.read(bytes ?? new Uint8Array(), { type: "array" }).SheetNames[0]).toBe("<script>alert(1)< script>");
  });

  it("drops unclosed think tags in one pass and keeps a heading-per-line deck to MAX_SLIDES slides", async () => {
    expect(exporterMarkdown(`${"<think>".repeat(100_000)}text`)).toBe(`${"<think>".repeat(100_000)}text`.slice(0, MAX_MARKDOWN));
    const headings = Array.from({ length: 5_000 }, (_, index) => `# Slide ${index}`).join("\n");
    const slides = slidesOf(headings);
    expect(slides).toHaveLength(MAX_SLIDES);
    expect(slides.at(-1)?.lines.at(-1)?.text).toBe("Slide 4999");
    const entries = unzip((await exporterFileBytes(".pptx", headings)) ?? new Uint8Array());
    expect([...entries.keys()].filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))).toHaveLength(MAX_SLIDES);
  });

  it("keeps raw HTML of the Markdown out of the .pptx markup (escaped as text)", async () => {
    const entries = unzip((await exporterFileBytes(".pptx", "# <script>alert(1)</script>")) ?? new Uint8Array());
    expect(entries.get("ppt/slides/slide1.xml")).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });
});
