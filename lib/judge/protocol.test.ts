import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { benchmarkDir } from "@/test/support/benchmark-dir";
import {
  judgeMessages,
  officialInputText,
  officialOutputText,
  officialQueriesText,
  officialSystemPrompt,
  parseJudgeReply,
  passUserMessage,
  reaskMessages,
  resolveUserMessage,
  STRICT_REASK_TEXT,
} from "./protocol";

// The official templates, written out as the specification gives them (§3 step 4, §4 LLM judge).
const PASS_TEMPLATE = "\n    node_selection: {ns}\n    design_principle: {dp}\n    workflow: {wf}\n    gt_nodes: {gt}\n    ";
const RESOLVE_TEMPLATE =
  "\n    <queries>\n    {q}\n    </queries>\n\n    <input>\n    {i}\n    </input>\n\n    <output>\n    {o}\n    </output>\n    \n    <reference_answer>\n    {gt}\n    </reference_answer>\n    ";

/** Python str.format over named fields (no braces in the values' template positions). */
function format(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] as string);
}

describe("passUserMessage (official step 1_4 template)", () => {
  it("fills the template byte for byte", () => {
    const message = passUserMessage({
      nodeSelection: "Start\nLLM\nEnd",
      designPrinciple: "Read the paper, then summarise it.\nKeep it short.",
      workflow: '{"nodes_info": [{"id": "1", "type": "start"}], "edges": []}',
      keyNodes: ["llm", "document-extractor"],
    });
    expect(message).toBe(
      format(PASS_TEMPLATE, {
        ns: "Start, LLM, End",
        dp: "Read the paper, then summarise it.\nKeep it short.",
        wf: '{"nodes_info": [{"id": "1", "type": "start"}], "edges": []}',
        gt: "['llm', 'document-extractor']",
      }),
    );
  });

  it("strips newlines at both ends of node_selection before joining the rest with ', '", () => {
    const message = passUserMessage({ nodeSelection: "\n\nStart\n\nEnd\n", designPrinciple: "", workflow: "{}", keyNodes: [] });
    expect(message).toBe(format(PASS_TEMPLATE, { ns: "Start, , End", dp: "", wf: "{}", gt: "[]" }));
  });

  it("shows gt_nodes as a Python list (repr quoting)", () => {
    const message = passUserMessage({ nodeSelection: "x", designPrinciple: "d", workflow: "{}", keyNodes: ["it's", "llm"] });
    expect(message).toContain(`gt_nodes: ["it's", 'llm']\n    `);
  });
});

describe("resolveUserMessage (official resolve template)", () => {
  const queries = ["Summarise the paper (variable paper).", "Also translate it (variable language).", "Unused third round."];

  it("fills the template byte for byte with queries up to the round, string and number inputs, outputs and the reference", () => {
    const message = resolveUserMessage({
      queries,
      round: 2,
      inputs: { paper: { mime_type: "document/pdf", value: "a.pdf" }, language: "French", pages: 3, note: "", images: [{ mime_type: "image/png", value: "b.png" }] },
      outputs: "summary: Un résumé.\ncount: 3.0",
      groundTruth: "A French summary.",
    });
    expect(message).toBe(
      format(RESOLVE_TEMPLATE, {
        q: "query1: Summarise the paper (variable paper).\nquery2: Also translate it (variable language).\n",
        i: "language: French\npages: 3\n",
        o: "summary: Un résumé.\ncount: 3.0",
        gt: "A French summary.",
      }),
    );
  });

  it("sends an empty reference answer when the test has none", () => {
    const message = resolveUserMessage({ queries, round: 1, inputs: {}, outputs: "text: hi", groundTruth: null });
    expect(message).toBe(format(RESOLVE_TEMPLATE, { q: "query1: Summarise the paper (variable paper).\n", i: "", o: "text: hi", gt: "" }));
  });

  it("renders non-string outputs with Python str()", () => {
    expect(officialOutputText({ text: "plain", flag: true, nothing: null, items: ["a", 1], file: { extension: ".pdf", size: 2 } })).toBe(
      "text: plain\nflag: True\nnothing: None\nitems: ['a', 1]\nfile: {'extension': '.pdf', 'size': 2}",
    );
    expect(resolveUserMessage({ queries, round: 1, inputs: {}, outputs: { ok: false }, groundTruth: "" })).toContain("<output>\n    ok: False\n    </output>");
  });

  it("omits empty, file and ground_truth inputs and keeps dataset order", () => {
    expect(officialInputText({ b: "2", a: "", ground_truth: "x", c: 0, f: { mime_type: "image/jpg", value: "f.jpg" } })).toBe("b: 2\nc: 0\n");
    expect(officialQueriesText(["one", "two"], 5)).toBe("query1: one\nquery2: two\n");
  });
});

describe("officialSystemPrompt and messages", () => {
  it("strips the prompt file with Python whitespace rules and sends [system, user]", () => {
    expect(officialSystemPrompt("\n  You are a judge.\x1c\n")).toBe("You are a judge.");
    expect(judgeMessages("S", "U")).toEqual([
      { role: "system", content: "S" },
      { role: "user", content: "U" },
    ]);
  });
});

describe("parseJudgeReply (official verdict rule)", () => {
  it("reads the <result> section", () => {
    expect(parseJudgeReply("<reason>\nAll rules hold.\n</reason>\n<result>\ntrue\n</result>")).toEqual({ verdict: true, wellFormed: true, reason: "\nAll rules hold.\n" });
    expect(parseJudgeReply("<reason>Rule 1 fails.</reason><result>FALSE</result>")).toEqual({ verdict: false, wellFormed: true, reason: "Rule 1 fails." });
  });

  it("ignores 'false' in the reason when the result section says true", () => {
    expect(parseJudgeReply("<reason>It is false that a node is missing.</reason><result>true</result>").verdict).toBe(true);
  });

  it("searches the whole reply when the tag is missing, and reads anything else as a pass", () => {
    expect(parseJudgeReply("The answer is false.")).toEqual({ verdict: false, wellFormed: false, reason: "The answer is false." });
    expect(parseJudgeReply("")).toEqual({ verdict: true, wellFormed: false, reason: "" });
    expect(parseJudgeReply("yes")).toMatchObject({ verdict: true, wellFormed: false });
  });

  it("uses the last <result> and the text up to the first </result> after it", () => {
    expect(parseJudgeReply("<result>false</result> then <result>true</result>").verdict).toBe(true);
    expect(parseJudgeReply("<result>true</result> then <result>not false").verdict).toBe(false);
  });

  it("flags replies whose result is not exactly true or false as malformed, keeping the official reading", () => {
    expect(parseJudgeReply("<result>probably false</result>")).toMatchObject({ verdict: false, wellFormed: false });
    expect(parseJudgeReply("<result>true")).toMatchObject({ verdict: true, wellFormed: false });
    expect(parseJudgeReply("<result> True </result>")).toMatchObject({ verdict: true, wellFormed: true });
  });
});

describe("reaskMessages", () => {
  it("appends the malformed reply and a request for the required format", () => {
    const first = judgeMessages("S", "U");
    expect(reaskMessages(first, "maybe")).toEqual([...first, { role: "assistant", content: "maybe" }, { role: "user", content: STRICT_REASK_TEXT }]);
  });
});

// The pipeline specification sits beside the benchmark data; when it is there, read the templates from it directly.
const specFile = benchmarkDir ? path.join(benchmarkDir, "..", "docs", "official-pipeline.md") : null;
const spec = specFile && existsSync(specFile) ? readFileSync(specFile, "utf8") : null;

/** A Python string literal from the spec ("\n" escapes only). */
const pythonLiteral = (quoted: string) => JSON.parse(quoted) as string;

describe.skipIf(!spec)(`templates as written in the pipeline specification${spec ? "" : " (skipped: official-pipeline.md not found beside the benchmark)"}`, () => {
  it("matches the step 1_4 user template", () => {
    const quoted = /User message: the exact template `("[^`]*")`/.exec(spec ?? "")?.[1];
    expect(quoted).toBeDefined();
    const template = pythonLiteral(quoted as string);
    expect(template).toBe(PASS_TEMPLATE);
    expect(passUserMessage({ nodeSelection: "A\nB", designPrinciple: "dp", workflow: "{}", keyNodes: ["llm"] })).toBe(
      format(template, { ns: "A, B", dp: "dp", wf: "{}", gt: "['llm']" }),
    );
  });

  it("matches the resolve user template", () => {
    const quoted = /User template: `("[^`]*")`/.exec(spec ?? "")?.[1];
    expect(quoted).toBeDefined();
    const template = pythonLiteral(quoted as string);
    expect(template).toBe(RESOLVE_TEMPLATE);
    expect(resolveUserMessage({ queries: ["q"], round: 1, inputs: { x: "1" }, outputs: "o: 2", groundTruth: "g" })).toBe(
      format(template, { q: "query1: q\n", i: "x: 1\n", o: "o: 2", gt: "g" }),
    );
  });
});
