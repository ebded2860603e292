// Shapes a text diff for display: long unchanged stretches fold to a few lines of context; parts are only ever text.

import type { TextDiff } from "../diff/types";

export type TextSegment = { op: "equal" | "insert" | "delete"; text: string } | { op: "fold"; lines: number };

function splitLines(text: string): string[] {
  const lines = text.split("\n");
  // A trailing newline ends the last line; it does not start an empty one.
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines.map((line, i) => (i < lines.length - 1 || text.endsWith("\n") ? `${line}\n` : line));
}

/**
 * Line diffs keep `context` unchanged lines before and after each change and fold the rest ("… 12 unchanged lines");
 * word diffs are short and are returned whole. Concatenating the non-fold segments' texts with the folded lines
 * restored gives the original parts back.
 */
export function foldTextDiff(diff: TextDiff, context = 3): TextSegment[] {
  if (diff.granularity === "words") return diff.parts.map((part) => ({ op: part.op, text: part.text }));
  const segments: TextSegment[] = [];
  diff.parts.forEach((part, index) => {
    if (part.op !== "equal") {
      segments.push({ op: part.op, text: part.text });
      return;
    }
    const lines = splitLines(part.text);
    const keepHead = index === 0 ? 0 : context;
    const keepTail = index === diff.parts.length - 1 ? 0 : context;
    if (lines.length <= keepHead + keepTail + 1) {
      segments.push({ op: "equal", text: part.text });
      return;
    }
    if (keepHead > 0) segments.push({ op: "equal", text: lines.slice(0, keepHead).join("") });
    segments.push({ op: "fold", lines: lines.length - keepHead - keepTail });
    if (keepTail > 0) segments.push({ op: "equal", text: lines.slice(lines.length - keepTail).join("") });
  });
  return segments;
}

/** A param value as one short line of text (JSON for structures). */
export function valueText(value: unknown, max = 160): string {
  if (value === undefined) return "(none)";
  const text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
