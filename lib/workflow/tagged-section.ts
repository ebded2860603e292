// The first `<tag>…</tag>` section of a text, as the lazy pattern `/<tag>([\s\S]*?)<\/tag>/` (case-insensitive) finds
// it, in time linear in the text: that pattern rescans the rest of the text from every opening tag when none closes.

export interface TaggedSection {
  /** Where the opening tag starts. */
  index: number;
  /** Where the body starts (just after the opening tag). */
  bodyStart: number;
  body: string;
  /** Where the section ends (just after the closing tag). */
  end: number;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const compiled = new Map<string, { opening: RegExp; closing: RegExp }>();

export interface TagMatching {
  /** Match the tags exactly as written (default: case-insensitively). */
  caseSensitive?: boolean;
  /** Case-insensitivity by Unicode case folding (the `u` flag: the Kelvin sign matches `k`), as Python's re does. */
  unicode?: boolean;
}

function patternsFor(tag: string, { caseSensitive = false, unicode = false }: TagMatching): { opening: RegExp; closing: RegExp } {
  const flags = `${caseSensitive ? "" : "i"}${unicode ? "u" : ""}`;
  const key = `${flags}:${tag}`;
  let patterns = compiled.get(key);
  if (!patterns) {
    patterns = { opening: new RegExp(`<${escapeRegExp(tag)}>`, flags), closing: new RegExp(`</${escapeRegExp(tag)}>`, `${flags}g`) };
    compiled.set(key, patterns);
  }
  return patterns;
}

/**
 * The first opening tag followed, anywhere later, by a closing tag, and the first such closing tag; null when there is
 * none. Only the first opening tag can start a match: if no closing tag follows it, none follows a later one.
 */
export function firstTaggedSection(text: string, tag: string, matching: TagMatching = {}): TaggedSection | null {
  const { opening, closing } = patternsFor(tag, matching);
  const open = opening.exec(text);
  if (!open) return null;
  const bodyStart = open.index + open[0].length;
  closing.lastIndex = bodyStart;
  const close = closing.exec(text);
  if (!close) return null;
  return { index: open.index, bodyStart, body: text.slice(bodyStart, close.index), end: close.index + close[0].length };
}
