import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scoreResponse } from "../workflow/score";
import { excerptAround, markLines, textMarksFor, type MarkedLine } from "./text-marks";

function marked(lines: MarkedLine[]): string[] {
  return lines.map((line) => line.segments.map((s) => (s.caret ? "^" : s.marks.length ? `[${s.text}]` : s.text)).join(""));
}

describe("markLines", () => {
  it("splits into numbered lines and brackets the marked span", () => {
    const lines = markLines('{\n  "a": 1, /* x */\n}', [{ id: 0, offset: 12, length: 7, severity: "error" }]);
    expect(lines.map((l) => l.number)).toEqual([1, 2, 3]);
    expect(marked(lines)).toEqual(["{", '  "a": 1, [/* x */]', "}"]);
    expect(lines[1]!.offset).toBe(2);
  });

  it("shows a zero-length mark as a caret, also at the very end", () => {
    expect(marked(markLines("ab", [{ id: 1, offset: 1, length: 0, severity: "error" }]))).toEqual(["a^b"]);
    expect(marked(markLines("ab", [{ id: 1, offset: 5, length: 0, severity: "error" }]))).toEqual(["ab^"]);
  });

  it("keeps a mark spanning a line break on both lines", () => {
    expect(marked(markLines("ab\ncd", [{ id: 0, offset: 1, length: 3, severity: "warning" }]))).toEqual(["a[b]", "[c]d"]);
  });

  it("reproduces the text exactly, whatever the marks", () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.record({ id: fc.nat(5), offset: fc.integer({ min: -3, max: 40 }), length: fc.nat(10), severity: fc.constant("error" as const) })), (text, marks) => {
        const lines = markLines(text, marks);
        expect(lines.map((line) => line.segments.map((s) => s.text).join("")).join("\n")).toBe(text);
      }),
    );
  });
});

describe("textMarksFor", () => {
  it("finds the position of a JSON comment in the workflow text", () => {
    const workflow = '{"nodes_info": [],\n /* note */ "edges": []}';
    const scored = scoreResponse({ nodeSelection: "Start", designPrinciple: "d", workflow }, { inputVars: [], outputVars: [], keyNodes: [] });
    const marks = textMarksFor(scored.diagnostics.map((d, id) => ({ ...d, id })), "workflow");
    expect(marks).toHaveLength(1);
    expect(workflow.slice(marks[0]!.offset, marks[0]!.offset + marks[0]!.length)).toBe("/* note */");
  });
});

describe("excerptAround", () => {
  const text = ["l1", "l2", "l3", "l4 error here", "l5", "l6", "l7", "l8"].join("\n");
  it("keeps the lines around the offset and says what it left out", () => {
    const excerpt = excerptAround(text, text.indexOf("error"), 1);
    expect(excerpt).toMatchObject({ text: "l3\nl4 error here\nl5", firstLine: 3, omittedBefore: 2, omittedAfter: 3 });
    expect(text.slice(excerpt.offset, excerpt.offset + 2)).toBe("l3");
  });

  it("clamps at both ends", () => {
    expect(excerptAround(text, 0, 2)).toMatchObject({ firstLine: 1, omittedBefore: 0, text: "l1\nl2\nl3" });
    expect(excerptAround(text, 10_000, 1)).toMatchObject({ text: "l7\nl8", omittedAfter: 0 });
  });
});
