import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maskParentheses, matchNodeTypeName, officialNodeSelectionText, parseNodeSelection } from "./node-selection";

/** The masking as first written, one code point at a time: the reference the code-unit walk must reproduce. */
function maskParenthesesByCodePoint(text: string): string {
  const chars = [...text];
  let depth = 0;
  for (let i = 0; i < chars.length; i += 1) {
    const ch = chars[i] as string;
    if (ch === "\n") {
      depth = 0;
      continue;
    }
    if ("(（[".includes(ch)) depth += 1;
    const closing = ")）]".includes(ch);
    const masked = depth > 0 || closing;
    if (closing && depth > 0) depth -= 1;
    if (masked) chars[i] = " ".repeat(ch.length);
  }
  return chars.join("");
}

describe("maskParentheses", () => {
  it("blanks what the code-point reference blanks, nested, unclosed, full-width and astral text included", () => {
    const texts = [
      "Start, LLM (x2), End",
      "LLM (summarise (each) part), Code] stray ) close",
      "Iteration [inner（全角）] 😀 (emoji 😀 inside) tail",
      "unclosed (runs to\nthe next line) but [this\none stops",
      "((()))",
      "no brackets at all",
      "",
    ];
    const differing = texts.filter((text) => maskParentheses(text) !== maskParenthesesByCodePoint(text));
    expect(differing).toEqual([]);
    expect(maskParentheses("a (b) 😀(😀)")).toBe("a     😀    ");
  });

  it("blanks what the code-point reference blanks on random texts of brackets, newlines, letters and astral characters", () => {
    let masked = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom("(", ")", "（", "）", "[", "]", "\n", "a", "LLM", " ", "😀", "全"), { maxLength: 30 }), (parts) => {
        const text = parts.join("");
        const expected = maskParenthesesByCodePoint(text);
        expect(maskParentheses(text)).toBe(expected);
        if (expected !== text) masked += 1;
      }),
      { numRuns: 500, seed: 17 },
    );
    expect(masked).toBeGreaterThan(200);
  });
});

describe("matchNodeTypeName", () => {
  it.each([
    ["Template", "template-transform"],
    ["template-transform", "template-transform"],
    ["Template Transform", "template-transform"],
    ["Text to Speech", "tts"],
    ["TTS", "tts"],
    ["Text to Image", "text2image"],
    ["text2image", "text2image"],
    ["Markdown Exportor", "markdown-exporter"],
    ["Doc Extractor", "document-extractor"],
    ["document_extractor", "document-extractor"],
    ["Iteration-Start", "iteration-start"],
    ["iteration start", "iteration-start"],
    ["IF-ELSE", "if-else"],
    ["Code node", "code"],
    ["LLM x2", "llm"],
    ["ECharts", "echarts"],
  ])("maps %j to %s", (name, type) => {
    expect(matchNodeTypeName(name)).toBe(type);
  });

  it.each(["", "I will use the following nodes", "Loop", "Agent"])("does not map %j", (name) => {
    expect(matchNodeTypeName(name)).toBeNull();
  });
});

describe("parseNodeSelection", () => {
  it("reads a comma list with counts in parentheses", () => {
    const result = parseNodeSelection("Start, LLM (3 instances), Template (for a, b), Text to Speech, End");
    expect(result.types).toEqual(["start", "llm", "template-transform", "tts", "end"]);
    expect(result.unmapped).toEqual([]);
  });

  it("records the source span of each mention", () => {
    const text = "Start, Markdown Exportor, End";
    const mention = parseNodeSelection(text).mentions.find((m) => m.type === "markdown-exporter");
    expect(mention).toBeDefined();
    expect(text.slice(mention!.offset, mention!.offset + mention!.length)).toBe("Markdown Exportor");
    expect(mention!.text).toBe("Markdown Exportor");
  });

  it("places a list item read before at its offset in each text, with that text's own characters", () => {
    parseNodeSelection("Start, Plan it, End");
    const text = "Start (a), Plan it, LLM, Plan it";
    const result = parseNodeSelection(text);
    expect(result.unmapped).toEqual([
      { text: "Plan it", offset: 11, length: 7 },
      { text: "Plan it", offset: 25, length: 7 },
    ]);
    expect(result.mentions.map((m) => [m.text, m.offset])).toEqual([["Start", 0], ["LLM", 20]]);
  });

  it("reads numbered lines and drops descriptions after ' - ' and ':'", () => {
    const text = "1. Start - receives the file\n2. **Document Extractor**: reads it\n3. `LLM`\n- End";
    const result = parseNodeSelection(text);
    expect(result.types).toEqual(["start", "document-extractor", "llm", "end"]);
    const extractor = result.mentions[1]!;
    expect(text.slice(extractor.offset, extractor.offset + extractor.length)).toBe("Document Extractor");
  });

  it("reads <X></X> tag lists", () => {
    const text = "<Start></Start><LLM></LLM><Text to Speech></Text to Speech><End></End>";
    const result = parseNodeSelection(text);
    expect(result.types).toEqual(["start", "llm", "tts", "end"]);
    expect(result.mentions[2]).toMatchObject({ text: "Text to Speech", offset: 27 });
  });

  it("drops an unbalanced trailing parenthesis", () => {
    expect(parseNodeSelection("Start, LLM (for the summary, the title\nEnd").types).toEqual(["start", "llm", "end"]);
  });

  it("scans sentence-like items for display names and ignores removals", () => {
    const text = [
      "I will modify the existing workflow by:",
      "1. Keeping Start (id: 1) and LLM (id: 2) nodes",
      "2. Adding a Markdown Exporter node (id: 4) - to build the file",
      "3. Removing the TTS node",
      "4. Modifying the End node",
    ].join("\n");
    const result = parseNodeSelection(text);
    expect(result.types).toEqual(["start", "llm", "markdown-exporter", "end"]);
    expect(result.mentions.filter((m) => m.type !== "llm" && m.via !== "scan")).toEqual([]);
    expect(result.unmapped.map((u) => u.text)).toEqual(["I will modify the existing workflow by"]);
  });

  it("does not read lower-case common words in prose as node names", () => {
    const result = parseNodeSelection("we start with the code and end with a template");
    expect(result.types).toEqual([]);
    expect(result.unmapped).toHaveLength(1);
  });

  it("handles semicolons, bullets, multiplicity and empty input", () => {
    expect(parseNodeSelection("• Start; • LLM (x2); * If-Else; End").types).toEqual(["start", "llm", "if-else", "end"]);
    expect(parseNodeSelection("")).toEqual({ mentions: [], types: [], unmapped: [] });
    expect(parseNodeSelection(null).types).toEqual([]);
  });
});

describe("officialNodeSelectionText", () => {
  it("trims outer newlines and joins lines with ', '", () => {
    expect(officialNodeSelectionText("\nStart\nLLM\nEnd\n\n")).toBe("Start, LLM, End");
  });
});
