// Line or word diffs of long text params (prompts, code, templates) with jsdiff, reduced to plain data parts.
// Total: any two strings give parts whose deleted+equal texts rebuild the earlier text and inserted+equal the later.

import { diffLines, diffWordsWithSpace } from "diff";
import type { TextDiff, TextDiffPart } from "./types";

/** Texts worth a text diff rather than a before/after pair: multi-line or longer than this. */
const LONG_TEXT = 40;

export function isLongText(before: string, after: string): boolean {
  return before.includes("\n") || after.includes("\n") || before.length > LONG_TEXT || after.length > LONG_TEXT;
}

const WORD = /\S/;

export function textDiff(before: string, after: string): TextDiff {
  const granularity = before.includes("\n") || after.includes("\n") ? "lines" : "words";
  const changes = granularity === "lines" ? diffLines(before, after) : diffWordsWithSpace(before, after);
  const parts: TextDiffPart[] = [];
  let inserted = 0;
  let deleted = 0;
  for (const change of changes) {
    const op = change.added ? "insert" : change.removed ? "delete" : "equal";
    // Count lines, or words (whitespace-only tokens are not words).
    const count = granularity === "lines" ? change.count : change.value.split(/\s+/).filter((token) => WORD.test(token)).length;
    if (op === "insert") inserted += count;
    if (op === "delete") deleted += count;
    const last = parts[parts.length - 1];
    if (last && last.op === op) last.text += change.value;
    else parts.push({ op, text: change.value });
  }
  return { granularity, parts, inserted, deleted };
}
