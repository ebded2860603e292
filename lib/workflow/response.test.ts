import { describe, expect, it } from "vitest";
import { cleanWorkflowText, parseResponse } from "./response";

const WORKFLOW = '{"nodes_info": [], "edges": []}';

function answer(workflowBody: string, extra = ""): string {
  return `${extra}<node_selection>Start, End</node_selection>\n<design_principle> simple </design_principle>\n<workflow>${workflowBody}</workflow>`;
}

describe("parseResponse: tag extraction (official step_1_1)", () => {
  it("extracts the three tags, trimmed, in any order and any letter case", () => {
    const raw = `<WORKFLOW>\n${WORKFLOW}\n</Workflow>\nnoise <Design_Principle>\n why \n</design_principle><node_selection> a </NODE_SELECTION>`;
    const parsed = parseResponse({ raw });
    expect(parsed).toMatchObject({ source: "raw", nodeSelection: "a", designPrinciple: "why", workflowText: WORKFLOW, diagnostics: [] });
    expect(parsed.json).toMatchObject({ ok: true, value: { nodes_info: [], edges: [] } });
  });

  it("takes the first match, non-greedy, spanning lines", () => {
    const raw = answer(`${WORKFLOW}</workflow> then <workflow>{"other": 1}`);
    expect(parseResponse({ raw }).workflowText).toBe(WORKFLOW);
  });

  it("starts the capture at a <workflow> mentioned earlier in prose", () => {
    const raw = `I will put the JSON in <workflow> tags.\n${answer(WORKFLOW)}`;
    const parsed = parseResponse({ raw });
    expect(parsed.json.ok).toBe(false);
    expect(parsed.diagnostics[0]?.officialStep).toBe("step_1_1");
  });

  it("reports each missing tag, and nulls all three fields as the official record does", () => {
    const parsed = parseResponse({ raw: `<node_selection>x</node_selection><workflow>${WORKFLOW}` });
    expect(parsed.nodeSelection).toBeNull();
    expect(parsed.workflowText).toBeNull();
    expect(parsed.diagnostics.map((d) => d.code)).toEqual(["missing-tag", "missing-tag"]);
    expect(parsed.diagnostics[0]?.message).toMatch(/<design_principle>/);
    expect(parsed.diagnostics[1]?.message).toMatch(/<workflow> opens at line 1, column 35 but no <\/workflow>/);
    expect(parsed.diagnostics.map((d) => [d.category, d.officialStep])).toEqual([["format", "step_1_1"], ["format", "step_1_1"]]);
  });

  it("strips the fence characters \\n ` j s o n from both ends", () => {
    expect(parseResponse({ raw: answer(`\n\`\`\`json\n${WORKFLOW}\n\`\`\`\n`) }).json.ok).toBe(true);
    // \r is not in the set but is harmless JSON whitespace.
    expect(parseResponse({ raw: answer(`\`\`\`json\r\n${WORKFLOW}\r\n\`\`\``) }).json.ok).toBe(true);
  });

  it("fails like the official cleanup when a space or capitals stop the stripping", () => {
    const spaced = parseResponse({ raw: answer(`\`\`\` json\n${WORKFLOW}\n\`\`\``) });
    expect(spaced.workflowText?.startsWith(" json")).toBe(true);
    expect(spaced.diagnostics[0]).toMatchObject({ code: "json-code-fence", location: { field: "workflow", line: 1, column: 2, offset: 1 } });
    const capitals = parseResponse({ raw: answer(`\`\`\`JSON\n${WORKFLOW}\n\`\`\``) });
    expect(capitals.diagnostics[0]?.code).toBe("json-code-fence");
  });

  it("uses Python whitespace for strip(): U+001C and U+0085 go, U+FEFF stays", () => {
    expect(cleanWorkflowText(`\u001c\u0085${WORKFLOW}\u3000`)).toBe(WORKFLOW);
    const bom = parseResponse({ raw: answer(`\ufeff${WORKFLOW}`) });
    expect(bom.workflowText?.charCodeAt(0)).toBe(0xfeff);
    expect(bom.json.ok).toBe(false);
  });

  it("maps the workflow text back into the raw answer", () => {
    const raw = answer(`\n\`\`\`json\n${WORKFLOW}\n\`\`\``);
    const parsed = parseResponse({ raw });
    expect(raw.slice(parsed.workflowOffsetInRaw ?? -1).startsWith(WORKFLOW)).toBe(true);
  });

  it("accepts any JSON value at this step (a non-object fails later)", () => {
    expect(parseResponse({ raw: answer("[1, 2]") }).json).toMatchObject({ ok: true, value: [1, 2] });
  });
});

describe("parseResponse: recorded runs", () => {
  it("parses the stored (already cleaned) workflow without cleaning it again", () => {
    const parsed = parseResponse({ nodeSelection: "Start", designPrinciple: "d", workflow: " json{}" });
    expect(parsed.source).toBe("record");
    expect(parsed.workflowText).toBe(" json{}");
    expect(parsed.diagnostics[0]?.code).toBe("json-code-fence");
  });

  it("reports a record with null fields as a missing tag", () => {
    const parsed = parseResponse({ nodeSelection: null, designPrinciple: null, workflow: null });
    expect(parsed.json.ok).toBe(false);
    expect(parsed.diagnostics).toHaveLength(1);
    expect(parsed.diagnostics[0]).toMatchObject({ code: "missing-tag", officialStep: "step_1_1", category: "format" });
  });

  it("locates a JSON error in the stored workflow", () => {
    const parsed = parseResponse({ nodeSelection: "a", designPrinciple: "b", workflow: '{\n  "edges": [] /* none */\n}' });
    expect(parsed.diagnostics[0]).toMatchObject({ code: "json-comment", location: { field: "workflow", line: 2, column: 15, offset: 16 } });
    expect(parsed.diagnostics[0]?.hint).toBeTruthy();
  });
});
