// The one-pass matchers find exactly what the patterns they replace find (checked on random short texts, where running
// the backtracking patterns is harmless).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agenticReferenceIds, INLINE_REFERENCE, scanInlineReferences } from "./inline-references";
import { cozeCode } from "./nodes/code";
import { officialNodeSelectionText } from "./node-selection";
import { firstTaggedSection } from "./tagged-section";

/** Texts made of the characters and pieces the patterns care about. */
const text = (pieces: string[]) => fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((parts) => parts.join(""));
const RUNS = { numRuns: 3000 };

describe("scanInlineReferences", () => {
  it("finds the matches of the official pattern", () => {
    fc.assert(
      fc.property(text(["{{#", "{", "#", "}}", "#}}", ".", "a", "'", "\n", "\r", " "]), (input) => {
        const expected = [...input.matchAll(INLINE_REFERENCE)].map((m) => ({ offset: m.index, length: m[0].length, token: m[1], variable: m[2] }));
        expect(scanInlineReferences(input)).toEqual(expected);
      }),
      RUNS,
    );
  });
});

describe("agenticReferenceIds", () => {
  it("finds the ids of the agentic checks' pattern", () => {
    const pattern = /\{\{#'?([^'.#}]+)'?\.[^\n]*?#\}\}/g;
    fc.assert(
      fc.property(text(["{{#", "{", "#", "}}", "#}}", ".", "a", "'", "\n", "\u2028", " ", "}"]), (input) => {
        expect(agenticReferenceIds(input)).toEqual([...input.matchAll(pattern)].map((m) => m[1]));
      }),
      RUNS,
    );
  });
});

describe("firstTaggedSection", () => {
  const pieces = ["<workflow>", "</workflow>", "<WORKFLOW>", "</Workflow>", "<work", "flow>", "\u212A", "x", "\n"];
  for (const [flags, matching] of [["iu", { unicode: true }], ["i", {}], ["", { caseSensitive: true }]] as const) {
    it(`finds the first match of /<tag>([\\s\\S]*?)<\\/tag>/${flags}`, () => {
      const pattern = new RegExp("<workflow>([\\s\\S]*?)</workflow>", flags);
      fc.assert(
        fc.property(text(pieces), (input) => {
          const match = pattern.exec(input);
          const found = firstTaggedSection(input, "workflow", matching);
          expect(found && { index: found.index, body: found.body, end: found.end }).toEqual(match && { index: match.index, body: match[1], end: match.index + match[0].length });
        }),
        RUNS,
      );
    });
  }
});

describe("the official code rewrite for Coze", () => {
  /** The official algorithm, with its backtracking header pattern (safe on short texts); it skips empty names. */
  function reference(source: string): string | null {
    const header = /def\s+main\s*\((.*?)\)\s*:/.exec(source);
    if (!header) return source;
    const names = (header[1] ?? "")
      .split(",")
      .map((arg) => (arg.split(":")[0] ?? "").trim())
      .filter((name) => name !== "");
    if (names.length > 64 || names.some((name) => name.length > 200)) return null;
    let body = source.slice(header.index + header[0].length);
    const indent = /\n([ \t]+)/.exec(body)?.[1] ?? "    ";
    for (const name of names) {
      if (/[*+?{]/.test(name)) return null;
      let pattern: RegExp;
      try {
        pattern = new RegExp(`(?<!['"])\\b${name}\\b(?!['"])`, "g");
      } catch {
        return null;
      }
      body = body.replace(pattern, () => `params['${name}']`);
    }
    return `async def main(args: Args) -> Output:\n${indent}params = args.params${body}`;
  }

  it("finds the header the official pattern finds", () => {
    fc.assert(
      fc.property(text(["def", " ", "main", "(", ")", ":", "a", ",", "\n", "def main(", "):", "\t"]), (input) => {
        expect(cozeCode(input)).toEqual(reference(input));
      }),
      RUNS,
    );
  });

  it("refuses a parameter name that would be a quantified pattern instead of running it", () => {
    expect(cozeCode(`def main((a+)+b):\n    return {}\n${"a".repeat(5000)}c`)).toBeNull();
  });
});

describe("the official node_selection preprocessing", () => {
  it("trims newlines at both ends and joins inner lines with commas", () => {
    fc.assert(
      fc.property(text(["\n", "a", " ", "LLM"]), (input) => {
        expect(officialNodeSelectionText(input)).toBe(input.replace(/^\n+|\n+$/g, "").replace(/\n/g, ", "));
      }),
      RUNS,
    );
  });
});
