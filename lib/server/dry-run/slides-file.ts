import "server-only";
// The .pptx of md_to_pptx, written with `pptxgenjs`: a new slide at every heading, titled by it, holding the text of
// the blocks below it (list items as bullets, tables as rows of cells). Our simplification of md2pptx, which the
// plugin runs (it also reads `#`/`##` as section slides and many layout directives).
import PptxGenJS from "pptxgenjs";
import type { Token, Tokens } from "marked";
import { markdownTokens, plainText } from "./markdown-blocks";

/** Slides written at most; text under later headings goes on the last one. Ours, to bound the work. */
export const MAX_SLIDES = 100;
/** Characters per slide body; beyond, the body ends with "…". Ours. */
const MAX_BODY = 4_000;

interface Slide {
  title: string;
  lines: { text: string; bullet: boolean }[];
}

function bodyLines(token: Token): { text: string; bullet: boolean }[] {
  switch (token.type) {
    case "list":
      return (token as Tokens.List).items.map((item) => ({ text: plainText(item.tokens, item.text).replace(/\s+/g, " ").trim(), bullet: true }));
    case "table": {
      const table = token as Tokens.Table;
      return [table.header, ...table.rows].map((row) => ({ text: row.map((cell) => plainText(cell.tokens, cell.text)).join(" | "), bullet: false }));
    }
    case "space":
    case "hr":
      return [];
    default: {
      const text = "tokens" in token && Array.isArray(token.tokens) ? plainText(token.tokens, "") : "text" in token && typeof token.text === "string" ? token.text : "";
      return text.trim() === "" ? [] : [{ text: text.trim(), bullet: false }];
    }
  }
}

export function slidesOf(markdown: string): Slide[] {
  const slides: Slide[] = [];
  for (const token of markdownTokens(markdown)) {
    if (token.type === "heading" && slides.length < MAX_SLIDES) {
      slides.push({ title: plainText((token as Tokens.Heading).tokens, (token as Tokens.Heading).text).trim(), lines: [] });
      continue;
    }
    const lines = bodyLines(token);
    if (lines.length === 0) continue;
    if (slides.length === 0) slides.push({ title: "", lines: [] });
    (slides[slides.length - 1] as Slide).lines.push(...lines);
  }
  return slides.length > 0 ? slides : [{ title: "", lines: [] }];
}

export async function pptxBytes(markdown: string): Promise<Uint8Array> {
  const presentation = new PptxGenJS();
  presentation.layout = "LAYOUT_16x9";
  for (const { title, lines } of slidesOf(markdown)) {
    const slide = presentation.addSlide();
    if (title !== "") slide.addText(title.slice(0, 300), { x: 0.5, y: 0.3, w: 9, h: 0.9, fontSize: 28, bold: true });
    let budget = MAX_BODY;
    const runs: { text: string; options: { bullet: boolean; breakLine: boolean } }[] = [];
    for (const line of lines) {
      if (budget <= 0) break;
      const text = line.text.length > budget ? `${line.text.slice(0, budget)}…` : line.text;
      budget -= text.length;
      runs.push({ text, options: { bullet: line.bullet, breakLine: true } });
    }
    if (runs.length > 0) slide.addText(runs, { x: 0.5, y: title === "" ? 0.4 : 1.3, w: 9, h: title === "" ? 4.8 : 3.9, fontSize: 16, valign: "top", fit: "shrink" });
  }
  const written = await presentation.write({ outputType: "nodebuffer", compression: true });
  return written instanceof Uint8Array ? written : new Uint8Array(written as ArrayBuffer);
}
