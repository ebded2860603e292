import "server-only";
// Real files for the dry run's Markdown exporters, so a predicted .docx or .pdf output has the size and type of a
// file a user would get: one paragraph per Markdown line (headings by their `#`s), written with `docx` and `pdf-lib`.
// Cheap by design: the Markdown is clipped, and other targets keep size 0.
import { Document, HeadingLevel, Packer, Paragraph } from "docx";
import { PDFDocument, StandardFonts } from "pdf-lib";
import type { FileMaker } from "@/lib/dry-run/types";

/** Markdown kept per file; a model's megabytes of text make a file of this size at most. */
const MAX_MARKDOWN = 200_000;
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

/** The bytes of an exporter's file; null for a target not written here. */
export async function exporterFileBytes(extension: string, markdown: string): Promise<Uint8Array | null> {
  if (extension === ".docx") return docxBytes(markdown);
  if (extension === ".pdf") return pdfBytes(markdown);
  return null;
}

export const exporterFiles: FileMaker = {
  async make({ extension, markdown }) {
    const bytes = await exporterFileBytes(extension, markdown);
    return bytes ? { size: bytes.byteLength } : null;
  },
};
