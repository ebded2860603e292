// The exporters' files are real: the .docx and .pdf written for a dry run open in the readers the dry run uses.
import mammoth from "mammoth";
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { exporterFileBytes, exporterFiles } from "./exporter-files";

const markdown = "# Quarterly report\n\nSales rose in the North.\n\n## Outlook\n\n北 region: steady.";

describe("exporter files", () => {
  it("writes a .docx that holds the Markdown's text", async () => {
    const bytes = await exporterFileBytes(".docx", markdown);
    expect(Buffer.from(bytes ?? []).subarray(0, 2).toString()).toBe("PK");
    const text = (await mammoth.extractRawText({ buffer: Buffer.from(bytes ?? []) })).value;
    expect(text).toContain("Quarterly report");
    expect(text).toContain("北 region: steady.");
  });

  it("writes a .pdf that holds the Markdown's text, other scripts as ?", async () => {
    const bytes = await exporterFileBytes(".pdf", markdown);
    expect(Buffer.from(bytes ?? []).subarray(0, 5).toString()).toBe("%PDF-");
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes ?? []), { verbosity: 0 }), { mergePages: true });
    expect(text).toContain("Sales rose in the North.");
    expect(text).toContain("? region: steady.");
  });

  it("sizes the file it writes and leaves other targets unwritten", async () => {
    const made = await exporterFiles.make({ extension: ".pdf", markdown });
    expect(made?.size).toBe((await exporterFileBytes(".pdf", markdown))?.byteLength);
    expect(made?.size).toBeGreaterThan(500);
    expect(await exporterFiles.make({ extension: ".pptx", markdown })).toBeNull();
  });
});
