import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { textDiff } from "./text-diff";

function rebuild(parts: ReturnType<typeof textDiff>["parts"], skip: "insert" | "delete"): string {
  return parts
    .filter((part) => part.op !== skip)
    .map((part) => part.text)
    .join("");
}

describe("textDiff", () => {
  it("rebuilds both texts from its parts, whatever they are", () => {
    const text = fc.oneof(fc.string({ maxLength: 80 }), fc.array(fc.constantFrom("alpha", "beta", "gamma", " ", "\n", "{{#'2'.text#}}"), { maxLength: 20 }).map((words) => words.join("")));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const diff = textDiff(before, after);
        expect(rebuild(diff.parts, "insert")).toBe(before);
        expect(rebuild(diff.parts, "delete")).toBe(after);
        // Adjacent parts never share an op (they are merged).
        diff.parts.forEach((part, i) => expect(part.op).not.toBe(diff.parts[i - 1]?.op));
      }),
      { numRuns: 300 },
    );
  });

  it("diffs multi-line text by lines and counts them", () => {
    const diff = textDiff("a\nb\nc\n", "a\nB\nc\nd\n");
    expect(diff.granularity).toBe("lines");
    expect(diff.parts).toEqual([
      { op: "equal", text: "a\n" },
      { op: "delete", text: "b\n" },
      { op: "insert", text: "B\n" },
      { op: "equal", text: "c\n" },
      { op: "insert", text: "d\n" },
    ]);
    expect([diff.inserted, diff.deleted]).toEqual([2, 1]);
  });
});
