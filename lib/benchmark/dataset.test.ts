import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { benchmarkDir, benchmarkMissingReason } from "../../test/support/benchmark-dir";
import {
  checkPassEntrySchema,
  fileCheckSchema,
  parseCheckPassFile,
  parseCheckResolveFile,
  parseQueryFile,
  splitTurnKey,
  taskQueriesSchema,
  turnKey,
} from "./dataset";
import { buildTurnSpecs, outputGroups } from "./turn";

const file = (test: Record<string, unknown>) => ({ input_var: ["q"], output_var: ["a"], related_nodes: ["llm"], test1: test, test2: test, test3: test });

describe("dataset parsers", () => {
  it("parses query files into ordered rounds", () => {
    const parsed = parseQueryFile("dataset/query.json", [{ id: 1, category: "Research", task: "PaperQA", query2: "second", query1: "first" }]);
    expect(parsed).toEqual({ ok: true, value: [{ id: 1, category: "Research", task: "PaperQA", queries: ["first", "second"] }] });
  });

  it("names the file, entry and field of a bad query entry", () => {
    const parsed = parseQueryFile("dataset/query.json", [{ id: "1", category: "Research", task: "PaperQA", query1: "x", query3: "y" }]);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues[0]).toMatchObject({ file: "dataset/query.json", entry: "PaperQA (item 1)", field: "id" });
    expect(parsed.issues[0]?.message).toMatch(/^dataset\/query\.json › PaperQA \(item 1\) › id: /);
  });

  it("parses check_pass entries with tests and ground truth", () => {
    const parsed = parseCheckPassFile("cp.json", {
      PaperQA_2: file({ q: "hi", paper: { mime_type: "document/pdf", value: "a.pdf" }, n: 3, ground_truth: "yes" }),
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const entry = parsed.value.PaperQA_2;
    expect(entry?.tests[0]).toEqual({ inputs: { q: "hi", paper: { mime_type: "document/pdf", value: "a.pdf" }, n: 3 }, groundTruth: "yes" });
    expect(entry?.outputVar).toEqual(["a"]);
  });

  it("names the entry and field of a bad check_pass entry", () => {
    const parsed = parseCheckPassFile("cp.json", { PaperQA_2: { ...file({}), output_var: "a" }, Bad: file({ x: { mime_type: "a/b" } }) });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues.map((i) => [i.entry, i.field])).toEqual(
      expect.arrayContaining([
        ["PaperQA_2", "output_var"],
        ["Bad", null],
      ]),
    );
    expect(parsed.issues.some((i) => i.entry === "Bad" && i.field?.startsWith("test1"))).toBe(true);
  });

  it("parses file checks and rejects non-extensions", () => {
    expect(parseCheckResolveFile("cr.json", { HTML_2: { html: ".html" } })).toEqual({ ok: true, value: { HTML_2: { html: ".html" } } });
    const bad = parseCheckResolveFile("cr.json", { HTML_2: { html: "html" } });
    expect(bad.ok ? null : bad.issues[0]).toMatchObject({ entry: "HTML_2", field: "html" });
  });

  it("rejects files of the wrong overall shape", () => {
    expect(parseQueryFile("q.json", {}).ok).toBe(false);
    expect(parseCheckPassFile("cp.json", []).ok).toBe(false);
  });

  it("builds and splits turn keys", () => {
    expect(turnKey("Code", 3)).toBe("Code_3");
    expect(splitTurnKey("Mermaid_2")).toEqual({ task: "Mermaid", round: 2 });
    expect(splitTurnKey("Mermaid")).toBeNull();
  });

  it("normalises single and nested output targets into groups", () => {
    expect(outputGroups(["a", "b"])).toEqual([["a", "b"]]);
    expect(outputGroups([["a"], ["a", "b"]])).toEqual([["a"], ["a", "b"]]);
    expect(outputGroups([])).toEqual([]);
  });
});

/** What the parsers made of an entry when zod parsed every one (before plain entries skipped it). */
const viaZod = {
  checkPass(value: unknown) {
    const parsed = checkPassEntrySchema().safeParse(value);
    if (!parsed.success) return null;
    const { input_var, output_var, related_nodes, test1, test2, test3 } = parsed.data;
    const test = ({ ground_truth: truth, ...inputs }: Record<string, unknown>) => ({ inputs, groundTruth: typeof truth === "string" ? truth : null });
    return { inputVar: input_var, outputVar: output_var, relatedNodes: related_nodes, tests: [test(test1), test(test2), test(test3)] };
  },
  fileCheck: (value: unknown) => {
    const parsed = fileCheckSchema().safeParse(value);
    return parsed.success ? parsed.data : null;
  },
  task: (value: unknown) => {
    const parsed = taskQueriesSchema().safeParse(value);
    return parsed.success ? parsed.data : null;
  },
};

/** JSON as the files hold it: `__proto__` an own key, as JSON.parse makes it. */
const asRead = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe("dataset parsers give what zod gives", () => {
  const key = fc.oneof({ arbitrary: fc.constantFrom("q", "paper", "n", "10", "x", "constructor"), weight: 10 }, { arbitrary: fc.constantFrom("ground_truth", "__proto__"), weight: 1 });
  const file = fc.record(
    { mime_type: fc.constantFrom("document/pdf", "image/png", "", 3), value: fc.constantFrom("a.pdf", "b.png", ""), extra: fc.string() },
    { requiredKeys: ["mime_type", "value"] },
  );
  const input = fc.oneof(
    { arbitrary: fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), file, fc.array(file, { maxLength: 3 })), weight: 12 },
    { arbitrary: fc.constantFrom(null, true), weight: 1 },
  );
  const test = fc.oneof({ arbitrary: fc.dictionary(key, input, { maxKeys: 4 }), weight: 12 }, { arbitrary: fc.constantFrom([], "t"), weight: 1 });
  const names = fc.array(fc.constantFrom("a", "b", ""), { maxLength: 3 });
  const entry = fc.record(
    {
      input_var: fc.oneof({ arbitrary: names, weight: 10 }, { arbitrary: fc.constant("q"), weight: 1 }),
      output_var: fc.oneof({ arbitrary: fc.oneof(names, fc.array(names, { maxLength: 2 })), weight: 10 }, { arbitrary: fc.constant([["a"], 1]), weight: 1 }),
      related_nodes: names,
      test1: test,
      test2: test,
      test3: test,
      other: fc.string(),
    },
    { requiredKeys: ["input_var", "output_var", "related_nodes", "test1", "test2", "test3"] },
  );

  it("for check_pass entries (property)", () => {
    let accepted = 0;
    fc.assert(
      fc.property(entry, (generated) => {
        const value = asRead(generated);
        const parsed = parseCheckPassFile("cp.json", { Task_1: value });
        const expected = viaZod.checkPass(value);
        expect(parsed.ok).toBe(expected !== null);
        if (parsed.ok) expect(JSON.stringify(parsed.value.Task_1)).toBe(JSON.stringify(expected));
        if (parsed.ok) accepted += 1;
      }),
      { numRuns: 1500 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it("for file checks and query entries (property)", () => {
    const extensions = fc.dictionary(key, fc.oneof(fc.constantFrom(".pdf", ".md", "pdf", ". x", ""), fc.integer()), { maxKeys: 4 });
    const task = fc.record({ id: fc.oneof(fc.integer(), fc.constant(1.5), fc.constant("1")), category: fc.constantFrom("", "Research"), task: fc.constantFrom("", "PaperQA"), query1: fc.string(), ["__proto__"]: fc.string() }, { requiredKeys: [] });
    fc.assert(
      fc.property(extensions, task, (generatedExtensions, generatedTask) => {
        const checks = asRead(generatedExtensions);
        const parsedChecks = parseCheckResolveFile("cr.json", { Task_1: checks });
        const expectedChecks = viaZod.fileCheck(checks);
        expect(parsedChecks.ok).toBe(expectedChecks !== null);
        if (parsedChecks.ok) expect(JSON.stringify(parsedChecks.value.Task_1)).toBe(JSON.stringify(expectedChecks));
        const item = asRead(generatedTask);
        const zodTask = viaZod.task(item);
        const parsedTask = parseQueryFile("q.json", [item]);
        if (zodTask === null) expect(parsedTask.ok).toBe(false);
        else if (parsedTask.ok) expect(parsedTask.value[0]).toMatchObject({ id: zodTask.id, category: zodTask.category, task: zodTask.task });
      }),
      { numRuns: 1000 },
    );
  });
});

describe.skipIf(!benchmarkDir)(`the shared dataset files${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  const read = (relative: string): unknown => JSON.parse(readFileSync(path.join(benchmarkDir as string, relative), "utf8"));

  it("parse with the spec's counts: 27 tasks, 79 turns, 37 file checks", () => {
    const queries = parseQueryFile("query.json", read("dataset/query.json"));
    const checkPass = parseCheckPassFile("check_pass_stage.json", read("dataset/check_pass_stage.json"));
    const checkResolve = parseCheckResolveFile("check_resolve_stage.json", read("dataset/check_resolve_stage.json"));
    if (!queries.ok || !checkPass.ok || !checkResolve.ok) throw new Error("dataset did not parse");
    expect(queries.value).toHaveLength(27);
    expect(queries.value.reduce((n, t) => n + t.queries.length, 0)).toBe(79);
    const turns = buildTurnSpecs(checkPass.value, checkResolve.value);
    expect(turns.size).toBe(79);
    expect(Object.keys(checkResolve.value)).toHaveLength(37);
    expect(turns.get("ContractReview_3")?.fileChecks).toEqual({ pdf_file: ".pdf", docx_file: ".docx" });
    expect(turns.get("Creation_2")?.outputVars).toEqual([["topic", "target_length", "style", "target_audience", "production"], ["production", "cover"]]);
    const nested = [...turns.values()].filter((t) => typeof t.outputVars[0] !== "string").map((t) => `${t.task}_${t.round}`);
    expect(nested.sort()).toEqual(["Creation_2", "Creation_3", "HTML_3", "HomeworkGrading_2", "Mermaid_2"]);
    const withTruth = [...turns.values()].flatMap((t) => t.tests).filter((t) => t.groundTruth !== null);
    expect(withTruth).toHaveLength(42);
  });
});
