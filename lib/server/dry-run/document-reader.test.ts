// The case-file reader parses real files in a worker thread: text, spreadsheets, CSV, PDF and DOCX give their text;
// a corrupt file, a file over the size limit and a parse over the time limit give a reason instead of text.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import * as XLSX from "xlsx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadedFile } from "@/lib/dry-run/values";
import { benchmarkDir } from "@/test/support/benchmark-dir";
import { createCaseFileReader, type CaseFileReader } from "./document-reader";

let dir: string;
let reader: CaseFileReader;
const upload = (name: string, mime: string) => uploadedFile(mime, 0, name);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "case-files-"));
  const sheet = XLSX.utils.aoa_to_sheet([["Region", "Sales"], ["North", 120], [], ["South", 80]]);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, "Q1");
  await writeFile(path.join(dir, "sales.xlsx"), XLSX.write(book, { type: "buffer", bookType: "xlsx" }) as Buffer);
  await writeFile(path.join(dir, "orders.csv"), "id,item\n1,pen\n2,ink\n");
  await writeFile(path.join(dir, "notes.txt"), "Meeting at noon — bring the report.");
  await writeFile(path.join(dir, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  await writeFile(path.join(dir, "broken.pdf"), "%PDF-1.7 this is not a PDF body");
  await writeFile(path.join(dir, "broken.docx"), "PK not really a zip");
  await writeFile(path.join(dir, "large.pdf"), Buffer.alloc(2048, 0x20));
  reader = createCaseFileReader({ dir });
});

afterAll(async () => {
  await reader.close();
  await rm(dir, { recursive: true, force: true });
});

describe("case-file reader", () => {
  it("reads a spreadsheet's first sheet and a CSV as Markdown tables, blank rows dropped", async () => {
    expect(await reader.read(upload("sales.xlsx", "document/xlsx"))).toEqual({ ok: true, text: "| Region | Sales |\n| --- | --- |\n| North | 120 |\n| South | 80 |" });
    expect(await reader.read(upload("orders.csv", "document/csv"))).toEqual({ ok: true, text: "| id | item |\n| --- | --- |\n| 1 | pen |\n| 2 | ink |" });
  });

  it("reads plain text as UTF-8 and fails on bytes that are not, as Dify does", async () => {
    expect(await reader.read(upload("notes.txt", "document/txt"))).toEqual({ ok: true, text: "Meeting at noon — bring the report." });
    expect(await reader.read(upload("latin1.txt", "document/txt"))).toEqual({ ok: false, reason: "Failed to decode plain text file" });
  });

  it("fails a corrupt PDF or DOCX with the parser's reason, and the reader goes on", async () => {
    const pdf = await reader.read(upload("broken.pdf", "document/pdf"));
    expect(pdf?.ok).toBe(false);
    expect(pdf && !pdf.ok ? pdf.reason : "").toMatch(/^Failed to extract text from PDF: \S/);
    const docx = await reader.read(upload("broken.docx", "document/docx"));
    expect(docx?.ok).toBe(false);
    expect(docx && !docx.ok ? docx.reason : "").toMatch(/^Failed to extract text from DOC\/DOCX: \S/);
    expect((await reader.read(upload("notes.txt", "document/txt")))?.ok).toBe(true);
  });

  it("parses a file by the extension it was uploaded with, as the resolve stage renames it", async () => {
    const asPdf = await reader.read(upload("sales.xlsx", "document/pdf"));
    expect(asPdf && !asPdf.ok ? asPdf.reason : "").toMatch(/^Failed to extract text from PDF/);
  });

  it("refuses a file over the size limit before reading it", async () => {
    const small = createCaseFileReader({ dir, maxBytes: 1024 });
    try {
      expect(await small.read(upload("large.pdf", "document/pdf"))).toEqual({ ok: false, reason: "Error downloading file: the file has 2048 bytes, over the upload limit of 1024 bytes." });
    } finally {
      await small.close();
    }
  });

  it("fails a parse over the time limit and replaces the worker for the next file", async () => {
    const hasty = createCaseFileReader({ dir, timeoutMs: 1 });
    try {
      const late = await hasty.read(upload("sales.xlsx", "document/xlsx"));
      expect(late).toEqual({ ok: false, reason: "Failed to extract text: text extraction ran over its 0.001 s limit.", ourLimit: true });
    } finally {
      await hasty.close();
    }
  });

  it("reads no file outside its directory, and leaves missing or unread formats to the stand-in", async () => {
    expect(await reader.read(upload("../notes.txt", "document/txt"))).toBeNull();
    expect(await reader.read(upload("absent.pdf", "document/pdf"))).toBeNull();
    expect(await reader.read(upload("notes.txt", "document/pptx"))).toBeNull();
    expect(await reader.read(uploadedFile("document/txt", 0))).toBeNull();
  });
});

describe.skipIf(!benchmarkDir)("case-file reader on the benchmark's case files", () => {
  it("extracts the text of a real PDF and a real DOCX", async () => {
    const real = createCaseFileReader({ dir: path.join(benchmarkDir ?? "", "case_files") });
    try {
      const resume = await real.read(upload("resume_1_3.pdf", "document/pdf"));
      expect(resume?.ok && resume.text.length).toBeGreaterThan(200);
      const lease = await real.read(upload("residential-lease-agreement.docx", "document/docx"));
      expect(lease?.ok && lease.text).toMatch(/lease/i);
    } finally {
      await real.close();
    }
  }, 60_000);
});
