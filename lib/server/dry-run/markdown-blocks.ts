import "server-only";
// Markdown as the md_exporter plugin reads it before converting (scripts/lib/utils/common_utils.py get_md_text and
// parse_md_to_tables), parsed with `marked`: its tables for the spreadsheet targets and its blocks for slides.
import { marked, type Token, type Tokens } from "marked";

/** Markdown kept per file; a model's megabytes of text make a file of this size at most. */
export const MAX_MARKDOWN = 200_000;

/**
 * get_md_text: strip, drop `<think>…</think>`, drop a ``` or ```markdown wrapper, turn literal `\n` into line breaks.
 * Found with indexOf so that unclosed `<think>` tags cost one pass.
 */
export function exporterMarkdown(text: string): string {
  let rest = text.slice(0, MAX_MARKDOWN).trim();
  let kept = "";
  for (;;) {
    const open = rest.indexOf("<think>");
    const close = open < 0 ? -1 : rest.indexOf("</think>", open + 7);
    if (close < 0) break;
    kept += rest.slice(0, open);
    rest = rest.slice(close + 8);
  }
  let markdown = (kept + rest).trim();
  if (markdown.endsWith("```")) {
    if (markdown.startsWith("```markdown")) markdown = markdown.slice(11, -3);
    else if (markdown.startsWith("```")) markdown = markdown.slice(3, -3);
  }
  return markdown.replaceAll("\\n", "\n");
}

export function markdownTokens(markdown: string): Token[] {
  return marked.lexer(markdown);
}

/** The text a reader sees of inline Markdown (emphasis, links and code marks dropped). */
export function plainText(tokens: readonly Token[] | undefined, fallback: string): string {
  if (!tokens || tokens.length === 0) return fallback;
  return tokens.map((token) => ("tokens" in token && Array.isArray(token.tokens) && token.tokens.length > 0 ? plainText(token.tokens, "") : "text" in token && typeof token.text === "string" ? token.text : "")).join("");
}

export interface MarkdownTable {
  /** The heading the plugin names the sheet after (headings h1..h5 in that order, the i-th for the i-th table), ≤ 30 characters. */
  name: string | null;
  header: string[];
  rows: string[][];
}

function walk(tokens: readonly Token[], visit: (token: Token) => void): void {
  for (const token of tokens) {
    visit(token);
    if (token.type === "list") walk((token as Tokens.List).items, visit);
    else if ((token.type === "blockquote" || token.type === "list_item") && "tokens" in token && Array.isArray(token.tokens)) walk(token.tokens, visit);
  }
}

/** parse_md_to_tables: every non-empty table, cells as text; empty when the Markdown has none (the plugin then fails). */
export function markdownTables(markdown: string): MarkdownTable[] {
  // The plugin puts a line break before the first `|` when the text does not start with one.
  const source = !markdown.startsWith("|") && markdown.includes("|") ? markdown.replace("|", "\n|") : markdown;
  const tables: Tokens.Table[] = [];
  const headings: { depth: number; text: string }[] = [];
  walk(markdownTokens(source), (token) => {
    if (token.type === "table") tables.push(token as Tokens.Table);
    else if (token.type === "heading") headings.push({ depth: (token as Tokens.Heading).depth, text: plainText((token as Tokens.Heading).tokens, (token as Tokens.Heading).text).trim() });
  });
  const names = [1, 2, 3, 4, 5].flatMap((depth) => headings.filter((heading) => heading.depth === depth && heading.text !== "").map((heading) => heading.text.slice(0, 30)));
  return tables
    .map((table) => ({ header: table.header.map((cell) => plainText(cell.tokens, cell.text)), rows: table.rows.map((row) => row.map((cell) => plainText(cell.tokens, cell.text))) }))
    .filter((table) => table.rows.length > 0)
    .map((table, index) => ({ ...table, name: names[index] ?? null }));
}
