// Splits a response text into numbered lines of segments so the page can highlight where diagnostics point
// (UTF-16 offsets, as the parser reports them).

import type { Diagnostic, ResponseField, Severity } from "../workflow/diagnostics";

export interface TextMark {
  /** Diagnostic id (index in the page's diagnostic list). */
  id: number;
  offset: number;
  /** 0 marks a position between characters (drawn as a caret). */
  length: number;
  severity: Severity;
}

export interface Segment {
  text: string;
  /** Ids of the marks covering this segment; a caret segment has empty text and one id. */
  marks: number[];
  caret?: boolean;
}

export interface MarkedLine {
  /** 1-based line number. */
  number: number;
  /** Offset of the line's first character in the text. */
  offset: number;
  segments: Segment[];
}

/** Marks of the diagnostics that point into `field`; `shift` moves offsets (e.g. workflow text inside raw). */
export function textMarksFor(diagnostics: readonly (Diagnostic & { id: number })[], field: ResponseField, shift = 0): TextMark[] {
  const marks: TextMark[] = [];
  for (const diagnostic of diagnostics) {
    const location = diagnostic.location;
    if (location?.field !== field || location.offset === undefined) continue;
    marks.push({ id: diagnostic.id, offset: location.offset + shift, length: Math.max(0, location.length ?? 0), severity: diagnostic.severity });
  }
  return marks;
}

export function markLines(text: string, marks: readonly TextMark[]): MarkedLine[] {
  const clamped = marks
    .map((mark) => {
      const offset = Math.min(Math.max(0, mark.offset), text.length);
      return { ...mark, offset, length: Math.min(mark.length, text.length - offset) };
    })
    .sort((a, b) => a.offset - b.offset || a.id - b.id);
  // Boundaries where the set of covering marks changes.
  const cuts = new Set<number>([0, text.length]);
  for (const mark of clamped) {
    cuts.add(mark.offset);
    cuts.add(mark.offset + mark.length);
  }
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) cuts.add(i + 1);
  const points = [...cuts].sort((a, b) => a - b);

  const lines: MarkedLine[] = [{ number: 1, offset: 0, segments: [] }];
  const current = (): MarkedLine => lines[lines.length - 1] as MarkedLine;
  const carets = (at: number): void => {
    for (const mark of clamped) if (mark.length === 0 && mark.offset === at) current().segments.push({ text: "", marks: [mark.id], caret: true });
  };
  for (let p = 0; p < points.length - 1; p++) {
    const start = points[p] as number;
    const end = points[p + 1] as number;
    carets(start);
    const piece = text.slice(start, end);
    const covering = clamped.filter((mark) => mark.length > 0 && mark.offset <= start && mark.offset + mark.length >= end).map((mark) => mark.id);
    const newline = piece.endsWith("\n");
    const body = newline ? piece.slice(0, -1) : piece;
    if (body.length > 0) current().segments.push({ text: body, marks: covering });
    // A mark covering only the line break stays visible as a caret at the end of the line.
    if (newline && body.length === 0 && covering.length > 0) current().segments.push({ text: "", marks: covering, caret: true });
    if (newline) lines.push({ number: lines.length + 1, offset: end, segments: [] });
  }
  carets(text.length);
  return lines;
}

export interface Excerpt {
  text: string;
  /** Offset of the excerpt's first character in the full text. */
  offset: number;
  /** Line number of the excerpt's first line. */
  firstLine: number;
  /** Lines left out before and after. */
  omittedBefore: number;
  omittedAfter: number;
}

/** The lines around `offset` (`radius` lines either side), to show where a problem is without the whole text. */
export function excerptAround(text: string, offset: number, radius = 3): Excerpt {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  const at = Math.min(Math.max(0, offset), text.length);
  let line = 0;
  while (line + 1 < starts.length && (starts[line + 1] as number) <= at) line++;
  const first = Math.max(0, line - radius);
  const last = Math.min(starts.length - 1, line + radius);
  const start = starts[first] as number;
  const end = last + 1 < starts.length ? (starts[last + 1] as number) - 1 : text.length;
  return { text: text.slice(start, end), offset: start, firstLine: first + 1, omittedBefore: first, omittedAfter: starts.length - 1 - last };
}
