import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { textDiff } from "../diff";
import { foldTextDiff, valueText, type TextSegment } from "./text";

const lines = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix} line ${i + 1}\n`).join("");

function unfoldedLength(segments: TextSegment[]): number {
  return segments.reduce((sum, segment) => sum + (segment.op === "fold" ? segment.lines : segment.text.split("\n").length - 1), 0);
}

describe("foldTextDiff", () => {
  it("keeps three lines of context around a change and folds the rest", () => {
    const before = `${lines(10, "head")}old middle\n${lines(10, "tail")}`;
    const after = `${lines(10, "head")}new middle\n${lines(10, "tail")}`;
    const segments = foldTextDiff(textDiff(before, after));
    expect(segments.map((s) => s.op)).toEqual(["fold", "equal", "delete", "insert", "equal", "fold"]);
    expect(segments[0]).toEqual({ op: "fold", lines: 7 });
    expect(segments[1]).toEqual({ op: "equal", text: "head line 8\nhead line 9\nhead line 10\n" });
    expect(segments[4]).toEqual({ op: "equal", text: "tail line 1\ntail line 2\ntail line 3\n" });
    expect(segments[5]).toEqual({ op: "fold", lines: 7 });
  });

  it("does not fold short unchanged stretches, nor word diffs", () => {
    const short = foldTextDiff(textDiff("a\nb\nc\n", "a\nB\nc\n"));
    expect(short.some((s) => s.op === "fold")).toBe(false);
    const words = textDiff("You write a very long and detailed summary of the document.", "You write a short summary of the document.");
    expect(foldTextDiff(words)).toEqual(words.parts);
  });

  it("accounts for every line of both texts (kept or folded)", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("alpha", "beta", "gamma", "delta"), { maxLength: 40 }), fc.array(fc.constantFrom("alpha", "beta", "gamma", "delta"), { maxLength: 40 }), (a, b) => {
        const before = a.map((word) => `${word}\n`).join("") + "end\n";
        const after = b.map((word) => `${word}\n`).join("") + "end\n";
        const segments = foldTextDiff(textDiff(before, after));
        const beforeSide = segments.filter((s) => s.op !== "insert");
        const afterSide = segments.filter((s) => s.op !== "delete");
        expect(unfoldedLength(beforeSide)).toBe(a.length + 1);
        expect(unfoldedLength(afterSide)).toBe(b.length + 1);
      }),
    );
  });
});

describe("valueText", () => {
  it("prints values as short JSON", () => {
    expect(valueText("text")).toBe('"text"');
    expect(valueText(["text", "2"])).toBe('["text","2"]');
    expect(valueText(undefined)).toBe("(none)");
    expect(valueText("x".repeat(300), 20)).toHaveLength(20);
  });
});
