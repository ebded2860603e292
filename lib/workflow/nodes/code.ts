// The `code` node type: Python `main(...)` over named inputs; exposes the `outputs` it declares.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { shape } from "../../zod-fast-path";
import { cozeIcon, refInput, renderCozeType } from "./coze-common";
import type { DifyData } from "../dify-graph";
import { NODE_TYPES } from "../node-types";
import { describeKind, isArray, preview, pyHashKey, pyStr, type JsonValue } from "../python-values";
import { plainTextField } from "./checks";
import { buildNamedInputs, inputData } from "./dify-common";
import { fail } from "./failure";
import { namedSelector } from "./schema";
import type { CozeBuildContext, CozeNodeParts, DeclaredVariable, DifyBuildContext, DifyPart, FactsOf, NodeSpec, NodeVariables } from "./types";
import { declaredNames, declaredPairs, found } from "./variables";
import { CODE_OUTPUT_TYPES } from "./vocabulary";

function toDify(ctx: DifyBuildContext, param: JsonValue, title: string): DifyPart {
  const inputs = buildNamedInputs(ctx, param, "variables");
  const code = ctx.param(param, "code");
  const outputList = ctx.param(param, "outputs");
  const variables = inputData(ctx, inputs);
  const outputs = new Map<string, DeclaredVariable>();
  const outputData: Record<string, DifyData> = {};
  const entries = ctx.iterate(outputList, ["outputs"], "an array of [name, type]");
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as JsonValue;
    // A list of two or more holds both items: read directly, with no path made for a failure.
    const pair = isArray(entry) && entry.length >= 2;
    const type = pair ? (entry[1] as JsonValue) : ctx.item(entry, 1, ["outputs", i], "a [name, type] pair");
    const name = pair ? (entry[0] as JsonValue) : ctx.item(entry, 0, ["outputs", i], "a [name, type] pair");
    const key = pyHashKey(name);
    if (key === undefined) {
      fail({
        code: "malformed-param",
        message: `${ctx.nodeRef()}: output name ${preview(name)} at outputs[${i}] is ${describeKind(name)}; expected a string.`,
        location: ctx.at(["outputs", i, 0]),
      });
    }
    outputs.set(key, { name, type });
    if (!ctx.checkOnly) outputData[pyStr(name)] = { children: null, type };
  }
  if (ctx.checkOnly) return { facts: { type: "code", outputs } };
  return {
    facts: { type: "code", outputs },
    data: { code, code_language: "python3", outputs: outputData, selected: false, title, type: "code", variables },
  };
}

const HEADER_START = /def\s+main\s*\(/g;
const LINE_END = /[\n\r\u2028\u2029]/g;
const CLOSING = /\)\s*:/y;
/** A parameter "name" that is a pattern with a quantifier could backtrack without end over the code. */
const QUANTIFIED = /[*+?{]/;
/** Beyond what a function is written with: each name is a pass over the body, so their number bounds the work. */
const MAX_PARAMETERS = 64;
const MAX_NAME_LENGTH = 200;

/**
 * The first match of the official `/def\s+main\s*\((.*?)\)\s*:/` in one pass: its parameter list and where the header
 * ends. The lazy group cannot cross a line end, so a header whose `(` lies on the line of one that found no `)…:`
 * cannot find one either (it sees a tail of the same line): it is not scanned again.
 */
function codeHeader(source: string): { parameters: string; end: number } | null {
  HEADER_START.lastIndex = 0;
  let failedLineEnd = -1;
  for (let start = HEADER_START.exec(source); start !== null; start = HEADER_START.exec(source)) {
    const open = start.index + start[0].length;
    if (open < failedLineEnd) continue;
    LINE_END.lastIndex = open;
    const lineEnd = LINE_END.exec(source)?.index ?? source.length;
    for (let close = source.indexOf(")", open); close !== -1 && close < lineEnd; close = source.indexOf(")", close + 1)) {
      CLOSING.lastIndex = close;
      if (CLOSING.test(source)) return { parameters: source.slice(open, close), end: CLOSING.lastIndex };
    }
    failedLineEnd = lineEnd;
  }
  return null;
}

// Python's \b is Unicode-aware (a name such as 数据 has boundaries); JavaScript's only knows ASCII word characters.
const WORD = String.raw`[\p{L}\p{N}_]`;
const UNICODE_BOUNDARY = String.raw`(?:(?<=${WORD})(?!${WORD})|(?<!${WORD})(?=${WORD}))`;

/** `(?<!['"])\b<name>\b(?!['"])` with the name inserted unescaped, as the official code does; null when invalid. */
function namePattern(name: string): RegExp | null {
  let ascii: RegExp;
  try {
    ascii = new RegExp(String.raw`(?<!['"])\b${name}\b(?!['"])`, "g");
  } catch {
    // A name such as *args is not a valid pattern in Python either: the official conversion fails.
    return null;
  }
  try {
    return new RegExp(String.raw`(?<!['"])${UNICODE_BOUNDARY}${name}${UNICODE_BOUNDARY}(?!['"])`, "gu");
  } catch {
    // Unicode mode refuses some text Python reads literally (a lone brace): ASCII boundaries then.
    return ascii;
  }
}

/** The official rewrite of `def main(a, b)` into Coze's `async def main(args)` reading `params['a']` (§7.5). */
export function cozeCode(source: string): string | null {
  const header = codeHeader(source);
  if (!header) return source;
  // Empty names (`main()`, `main( )`, a trailing or doubled comma) are skipped, as the official transform skips them:
  // an empty name would match at every word boundary and shred the body.
  const names = header.parameters
    .split(",")
    .map((arg) => (arg.split(":")[0] ?? "").trim())
    .filter((name) => name !== "");
  if (names.length > MAX_PARAMETERS || names.some((name) => name.length > MAX_NAME_LENGTH)) return null;
  let body = source.slice(header.end);
  const indent = /\n([ \t]+)/.exec(body)?.[1] ?? "    ";
  for (const name of names) {
    // A quantified name is refused rather than run (the official converter would hang on some), like an invalid one.
    if (QUANTIFIED.test(name)) return null;
    const pattern = namePattern(name);
    if (pattern === null) return null;
    body = body.replace(pattern, () => `params['${name}']`);
  }
  return `async def main(args: Args) -> Output:\n${indent}params = args.params${body}`;
}

function toCoze(ctx: CozeBuildContext, param: JsonValue): CozeNodeParts {
  const entries = ctx.iterate(ctx.param(param, "variables"), ["variables"], "an array of [name, [variable, nodeId]]");
  const nodeInputs = entries.map((entry, i) => {
    const ref = ctx.item(entry, 1, ["variables", i], "a [name, [variable, nodeId]] entry", "malformed-entry");
    return refInput(ctx.item(entry, 0, ["variables", i], "a [name, [variable, nodeId]] entry", "malformed-entry"), ctx.selector(ref, ["variables", i, 1]));
  });
  const source = ctx.param(param, "code");
  const outputs: Record<string, unknown> = {};
  ctx.iterate(ctx.param(param, "outputs"), ["outputs"], "an array of [name, type]").forEach((entry, i) => {
    const name = ctx.item(entry, 0, ["outputs", i], "a [name, type] pair");
    outputs[pyStr(name)] = renderCozeType(ctx, ctx.item(entry, 1, ["outputs", i], "a [name, type] pair"), ["outputs", i, 1]);
  });
  if (typeof source !== "string") {
    fail({ code: "text-param-not-string", message: `${ctx.nodeRef()}: code is ${describeKind(source)}; it must be a string.`, location: ctx.at(["code"]) });
  }
  const code = cozeCode(source);
  if (code === null) {
    fail({ code: "malformed-param", message: `${ctx.nodeRef()}: an argument of main() is not a plain name, so the Coze code rewrite cannot match it.`, location: ctx.at(["code"]) });
  }
  return { parameters: { code, language: 3, node_inputs: nodeInputs, node_outputs: outputs } };
}

const variables: NodeVariables<FactsOf<"code">> = {
  facts(param) {
    const outputs = new Map<string, DeclaredVariable>();
    for (const output of declaredPairs(param, "outputs", 0, 1)) {
      const key = pyHashKey(output.name);
      if (key !== undefined) outputs.set(key, output);
    }
    return { type: "code", outputs };
  },
  officialType(facts, variable) {
    const key = pyHashKey(variable);
    if (key === undefined) return { ok: false, code: "variable-name-not-string", message: "the variable name is not a string" };
    const output = facts.outputs.get(key);
    if (!output) {
      return { ok: false, code: "undeclared-code-output", message: `the code node declares no output named ${JSON.stringify(variable)}` };
    }
    return found(output.type);
  },
  realType(facts, variable) {
    const output = facts.outputs.get(pyHashKey(variable) as string);
    if (!output) return undefined;
    return typeof output.type === "string" ? output.type : null;
  },
  names: (facts) => declaredNames(facts.outputs.values()),
};

export const codeNode: NodeSpec = {
  type: "code",
  info: NODE_TYPES["code"],
  paramShape: shape.object({
    variables: shape.array(namedSelector),
    outputs: shape.array(shape.tuple(shape.string, shape.string)),
    code: shape.string,
  }),
  requiredParams: ["variables", "code", "outputs"],
  textParams: [],
  selectorParams: [{ key: "variables", shape: "named-selectors" }],
  variables,
  branching: false,
  toDify,
  coze: {
    kind: "node",
    cozeType: "code",
    baseTitle: "Code",
    icon: cozeIcon("icon-Code-v2.jpg"),
    description: "Code execution: Processes input variables to generate specific returns.",
    build: toCoze,
  },
  checkParams(ctx) {
    ctx.pairs("outputs", 2, 1, CODE_OUTPUT_TYPES, "param-shape", "[name, type]");
    plainTextField(ctx, "code");
  },
};
