// Reference checks in the converter's registration order: selectors and inline {{#id.var#}} references, the
// variables they read, upstream/canvas scoping, and the type rules that depend on inferred types (§2.6, §3.2).
// Reports every problem (not only the first); official steps are set only where the official converter throws.

import {
  CATALOG,
  exposedNames,
  forEachCondition,
  forEachSelectorSlot,
  officialVariableType,
  realVariableType,
  type FactsContext,
  type NodeFacts,
  type ParamPath,
  type SelectorParamSpec,
} from "../catalog";
import { readInlineIdToken, scanInlineReferences, type InlineReferenceMatch } from "../inline-references";
import type { Diagnostic } from "../diagnostics";
import type { NodeTypeId } from "../node-types";
import type { NodeVariables } from "../nodes/types";
import { isArray, isJsonObject, ownValue, preview, pyStr, type JsonObject, type JsonValue } from "../python-values";
import { anchorShape } from "../shape-anchor";
import { makeDiagnostic, type DiagnosticCode } from "../diagnostic-codes";
import { buildGraphIndex, type GraphIndex } from "./graph";
import { buildModel, describeNode, formatPath, nodeLocation, textFieldsOf, type NodeEntry, type TextField, type WorkflowModel } from "./model";

interface Registered {
  node: NodeEntry;
  facts: NodeFacts | null;
  /** The variable rules of the node's type (those of its facts), looked up once instead of per reference. */
  rules: NodeVariables | null;
}

type ReferenceVia = "selector" | "inline";

/** Fields the converter copies verbatim, where `{{#id.var#}}` stays literal text. */
const UNREWRITTEN_FIELDS: Readonly<Record<string, { key: string; hint: string }>> = {
  "template-transform": { key: "template", hint: "Declare the value in `variables` and write {{ name }} in the template." },
  code: { key: "code", hint: "Pass the value through `variables` and read it as an argument of main()." },
  "question-classifier": { key: "instruction", hint: "The classifier instruction is passed as is; describe the classes in words." },
};

// `(?=(\s*))\1` takes the blanks after `{{` or `{%` whole (a lookahead does not backtrack): a failed match gives
// them back at once instead of one at a time.
const JINJA_EXPRESSION = /\{\{-?(?=(\s*))\1([A-Za-z_][A-Za-z0-9_]*)/g;
const JINJA_BINDING = /\{%-?(?=(\s*))\1(?:for\s+([A-Za-z_][\w]*)(?:\s*,\s*([A-Za-z_][\w]*))?\s+in|set\s+([A-Za-z_][\w]*)|macro\s+([A-Za-z_][\w]*))/g;
const JINJA_GLOBALS: ReadonlySet<string> = new Set(["loop", "range", "true", "false", "none", "True", "False", "None", "namespace", "lipsum", "dict", "cycler", "joiner"]);
const TOKEN_HINTS: ReadonlyArray<[RegExp, string]> = [
  [/#\}\}/, "A reference without a dot ({{#x#}}) runs on to the next reference; every reference is {{#'nodeId'.variable#}}."],
  [/^\s*['"]?item['"]?\s*$/, "Inside an iteration read the item from the iteration node: {{#'<iterationId>'.item#}}."],
  [/^\s*['"]?sys['"]?\s*$/, "System variables are not available; pass the value in through the start node."],
];

/** Node types whose type rules (checkTypeRules) read the resolved selector types. */
const TYPE_RULE_NODES: ReadonlySet<NodeTypeId> = new Set(["document-extractor", "list-operator", "iteration", "if-else"]);
const NO_TYPES: ReadonlyMap<string, JsonValue> = new Map();

function tokenHint(token: string): string {
  for (const [pattern, hint] of TOKEN_HINTS) if (pattern.test(token)) return hint;
  return "The id must be a node id, written {{#'3'.text#}} or {{#3.text#}}.";
}

function referenceText(from: NodeEntry, variable: string, nodeId: string, path: ParamPath, via: ReferenceVia): string {
  const ref = via === "inline" ? `{{#${nodeId}.${variable}#}}` : `["${variable}", "${nodeId}"]`;
  return `${describeNode(from)} ${via === "inline" ? "references" : "reads"} ${ref} at \`${formatPath(path)}\``;
}

/** How a message names an iteration's output_selector, built only when one is reported. */
function collectsText(iteration: NodeEntry, selector: JsonValue[]): string {
  return `Iteration "${iteration.id}" collects ${preview(selector)}`;
}

function variablesList(names: readonly string[]): string {
  return names.length === 0 ? "nothing" : names.map((name) => `"${name}"`).join(", ");
}

/** Also the FactsContext of the nodes it registers: inputs are typed from the nodes registered so far. */
class ReferenceChecker implements FactsContext {
  /** Per graph vertex (one per distinct id), the latest node registered with that id. */
  private readonly registry: (Registered | undefined)[] = [];
  /** Output child id -> iterations whose output_selector waits for it. */
  private readonly pendingOutputs = new Map<string, NodeEntry[]>();
  /** The node and type map checkSelectors is walking, read by resolveSelector (no closure per node). */
  private selectorNode: NodeEntry | null = null;
  private selectorTypes: Map<string, JsonValue> | null = null;

  constructor(
    private readonly model: WorkflowModel,
    private readonly graph: GraphIndex,
    private readonly out: Diagnostic[],
  ) {}

  run(): void {
    const nodes = this.model.nodes;
    for (let i = 0; i < nodes.length; i += 1) this.visit(nodes[i] as NodeEntry);
  }

  private visit(node: NodeEntry): void {
    // Null tests rather than truthiness, and each field read once: this runs per node, mostly in baseline code.
    const known = node.known;
    const param = node.param;
    if (known !== null && param !== null) {
      const types = this.checkSelectors(node, known, param);
      this.checkInlineReferences(node);
      if (UNREWRITTEN_FIELDS[known] !== undefined) this.checkUnrewritten(node);
      if (types !== NO_TYPES) this.checkTypeRules(node, types);
    }
    // nodeFacts without its type and param tests, which the model has made already.
    const rules = known === null ? null : CATALOG[known].variables;
    const facts = rules === null ? null : rules.facts(param ?? {}, this);
    if (node.id === null) return;
    this.registry[node.vertex] = { node, facts, rules };
    if (known === "iteration" && node.parentId === null) this.awaitOutput(node);
    if (this.pendingOutputs.size > 0) this.matchOutput(node);
  }

  private report(code: DiagnosticCode, from: NodeEntry, path: ParamPath, message: string, extra: { target?: string; hint?: string; official: boolean; severity?: "warning" }): void {
    this.out.push(
      makeDiagnostic(code, message, {
        location: nodeLocation(from, path),
        targetNodeId: extra.target,
        hint: extra.hint,
        severity: extra.severity,
        officialStep: extra.official ? undefined : null,
      }),
    );
  }

  // -- resolution -------------------------------------------------------------------------------------------------

  private registeredAs(id: string): Registered | undefined {
    // vertexOfId inline: this runs for every reference.
    const group = this.model.byId.get(id);
    return group === undefined ? undefined : this.registry[(group[0] as NodeEntry).vertex];
  }

  inputType(selector: JsonValue | undefined): JsonValue | undefined {
    if (!isArray(selector) || typeof selector[1] !== "string") return undefined;
    const registered = this.registeredAs(selector[1]);
    if (!registered?.facts) return undefined;
    const lookup = officialVariableType(registered.facts, selector[0] as JsonValue);
    return lookup.ok ? lookup.type : undefined;
  }

  /**
   * Resolves `variable` on node `nodeId` as seen from `from`. `official` says whether the converter type-checks this
   * reference (selectors) or only requires the node to exist (inline references).
   */
  private resolve(from: NodeEntry, variable: string, nodeId: string, path: ParamPath, via: ReferenceVia): { type: JsonValue } | null {
    const registered = this.registeredAs(nodeId);
    if (registered === undefined) {
      this.reportMissingNode(from, variable, nodeId, path, referenceText(from, variable, nodeId, path, via));
      return null;
    }
    const facts = registered.facts;
    const rules = registered.rules;
    if (facts === null || rules === null) return null;
    const target = registered.node;
    // A name without a dot goes straight to its type's rules, as officialVariableType and realVariableType send it.
    const plain = !variable.includes(".");
    const lookup = plain ? rules.officialType(facts, variable) : officialVariableType(facts, variable);
    const typeChecked = via === "selector";
    if (!lookup.ok) {
      const where = referenceText(from, variable, nodeId, path, via);
      this.reportLookupFailure(from, target, facts, variable, path, where, lookup.code, typeChecked);
      return null;
    }
    const known = (plain ? rules.realType(facts, variable) : realVariableType(facts, variable)) !== undefined;
    if (!known || !this.inScope(from, target, variable)) {
      this.explainReference(from, target, facts, variable, path, referenceText(from, variable, nodeId, path, via), known);
    }
    return lookup;
  }

  private explainReference(from: NodeEntry, target: NodeEntry, facts: NodeFacts, variable: string, path: ParamPath, where: string, known: boolean): void {
    const nodeId = target.id as string;
    if (!known) {
      const exposes = exposedNames(facts);
      const subject = target.known === "start" ? `the start node declares no variable "${variable}"` : `${describeNode(target)} exposes no "${variable}"`;
      this.report("unknown-variable", from, path, `${where}: ${subject} (it has ${variablesList(exposes)}).`, {
        target: nodeId,
        official: false,
        hint: exposes.length > 0 ? `Did you mean "${exposes[0]}"?` : undefined,
      });
    }
    this.checkScope(from, target, variable, path, where);
  }

  /** Cheap test that the reference is visible and upstream (the detailed messages are built only when it is not). */
  private inScope(from: NodeEntry, target: NodeEntry, variable: string): boolean {
    const targetId = target.id as string;
    if (target.parentId !== null && from.parentId !== target.parentId && from.id !== target.parentId) return false;
    if (target.known === "iteration" && (variable === "item" || variable === "index") && from.parentId !== targetId) return false;
    // The target was found by its id: its vertex is that id's, with no second lookup.
    return this.graph.isUpstreamVertex(target.vertex, from);
  }

  private reportMissingNode(from: NodeEntry, variable: string, nodeId: string, path: ParamPath, where: string): void {
    const later = (this.model.byId.get(nodeId) ?? []).find((node) => node.index >= from.index);
    if (later) {
      const self = later === from;
      this.report("forward-reference", from, path, `${where}: ${self ? "a node cannot read itself" : `node "${nodeId}" is listed later (nodes_info[${later.index}])`}.`, {
        target: nodeId,
        official: true,
        hint: self ? undefined : `Move node "${nodeId}" above ${describeNode(from)}, or let the repair reorder nodes_info.`,
      });
      return;
    }
    const swapped = this.model.byId.has(variable);
    const hint = swapped
      ? `Selectors are [variable, nodeId]: write ["${nodeId}", "${variable}"].`
      : nodeId.endsWith("-0")
        ? `Children are numbered from 1; the iteration-start is "${nodeId.slice(0, -2)}-1".`
        : undefined;
    this.report("reference-unknown-node", from, path, `${where}: there is no node "${nodeId}".`, { target: nodeId, official: true, hint });
  }

  private reportLookupFailure(
    from: NodeEntry,
    target: NodeEntry,
    facts: NodeFacts,
    variable: string,
    path: ParamPath,
    where: string,
    failure: string,
    official: boolean,
  ): void {
    const target_ = target.id ?? undefined;
    if (target.known === "iteration-start") {
      const parent = target.parentId ?? "<iterationId>";
      this.report("reference-iteration-start", from, path, `${where}: "${target.id}" is the iteration-start, which exposes nothing.`, {
        target: target_,
        official,
        hint: `Read \`${variable}\` from the iteration node itself: ["${variable}", "${parent}"].`,
      });
    } else if (failure === "reference-no-outputs") {
      this.report("reference-no-outputs", from, path, `${where}: ${describeNode(target)} exposes no variables.`, { target: target_, official });
    } else if (failure === "undeclared-code-output") {
      const declared = exposedNames(facts);
      this.report("undeclared-code-output", from, path, `${where}: code node "${target.id}" declares ${variablesList(declared)} but not "${variable}".`, {
        target: target_,
        official,
        hint: `Add ["${variable}", "string"] to its outputs (and return it from main), or read one of the declared outputs.`,
      });
    } else if (failure === "iteration-item-untyped") {
      this.report("iteration-item-untyped", from, path, `${where}: the input of iteration "${target.id}" has no inferable type, so \`item\` cannot be typed.`, {
        target: target_,
        official,
        hint: "Iterate over a start variable, a code output or a parameter-extractor list whose type is declared.",
      });
    } else {
      this.report("variable-name-not-string", from, path, `${where}: the variable name is not a string.`, { target: target_, official });
    }
  }

  private checkScope(from: NodeEntry, target: NodeEntry, variable: string, path: ParamPath, where: string): void {
    const targetId = target.id as string;
    if (target.parentId !== null && from.parentId !== target.parentId && from.id !== target.parentId) {
      this.report("reference-into-iteration", from, path, `${where}: "${targetId}" sits inside iteration "${target.parentId}" and is not visible outside it.`, {
        target: targetId,
        official: false,
        hint: `Read the iteration's collected \`output\` instead: ["output", "${target.parentId}"].`,
      });
      return;
    }
    if (target.known === "iteration" && (variable === "item" || variable === "index") && from.parentId !== targetId) {
      this.report("iteration-variable-outside", from, path, `${where}: \`${variable}\` only exists inside iteration "${targetId}".`, {
        target: targetId,
        official: false,
        hint: "Read `output` outside the iteration.",
      });
      return;
    }
    if (!this.graph.isUpstreamVertex(target.vertex, from)) {
      this.report("reference-not-upstream", from, path, `${where}: no edge path leads from "${targetId}" to ${describeNode(from)}, so the value may not exist when it runs.`, {
        target: targetId,
        official: false,
        hint: `Add an edge path from "${targetId}" to "${from.id ?? from.index}".`,
      });
    }
  }

  // -- per-node passes --------------------------------------------------------------------------------------------

  /**
   * Resolves every selector; returns the official type of each resolved one by param path, for the node types whose
   * type rules read them (empty for the others).
   */
  private checkSelectors(node: NodeEntry, known: NodeTypeId, param: JsonObject): ReadonlyMap<string, JsonValue> {
    const specs = CATALOG[known].selectorParams;
    if (specs.length === 0) return NO_TYPES;
    const types = TYPE_RULE_NODES.has(known) ? new Map<string, JsonValue>() : null;
    this.selectorNode = node;
    this.selectorTypes = types;
    for (let i = 0; i < specs.length; i += 1) {
      const spec = specs[i] as SelectorParamSpec;
      // An iteration's output_selector names a child that is not built yet: matchOutput resolves it.
      if (spec.shape === "child-selector") continue;
      const value = ownValue(param, spec.key);
      if (value !== undefined) forEachSelectorSlot(spec, value, this, ReferenceChecker.resolveSelector);
    }
    return types === null ? NO_TYPES : types;
  }

  private static resolveSelector(checker: ReferenceChecker, value: JsonValue | undefined, path: ParamPath): void {
    if (!isArray(value) || value.length < 2) return;
    const variable = value[0];
    const nodeId = value[1];
    if (typeof variable !== "string" || typeof nodeId !== "string") return;
    const resolved = checker.resolve(checker.selectorNode as NodeEntry, variable, nodeId, path, "selector");
    const types = checker.selectorTypes;
    // A one-key path formats as its key.
    if (resolved !== null && types !== null) types.set(path.length === 1 && typeof path[0] === "string" ? path[0] : formatPath(path), resolved.type);
  }

  private checkInlineReferences(node: NodeEntry): void {
    const fields = textFieldsOf(node);
    for (let i = 0; i < fields.length; i += 1) {
      const field = fields[i] as TextField;
      const text = field.value;
      if (typeof text !== "string" || !text.includes("{{#")) continue;
      const path = field.path;
      // findInlineReferences without its second array: each match's id is read here.
      const matches = scanInlineReferences(text);
      for (let j = 0; j < matches.length; j += 1) {
        const match = matches[j] as InlineReferenceMatch;
        const nodeId = readInlineIdToken(match.token);
        if (nodeId === null) {
          this.report("malformed-inline-reference", node, path, `${describeNode(node)} \`${formatPath(path)}\` contains ${preview(text.slice(match.offset, match.offset + match.length), 50)}, whose id ${preview(match.token, 30)} is not a node id.`, {
            official: true,
            hint: tokenHint(match.token),
          });
          continue;
        }
        this.resolve(node, match.variable, nodeId, path, "inline");
      }
    }
  }

  private checkUnrewritten(node: NodeEntry): void {
    const field = node.known ? UNREWRITTEN_FIELDS[node.known] : undefined;
    const text = field && node.param ? ownValue(node.param, field.key) : undefined;
    if (!field || typeof text !== "string") return;
    // Only the count and the first match are read: no node id per match.
    const refs = text.includes("{{#") ? scanInlineReferences(text) : [];
    if (refs.length > 0) {
      const sample = text.slice(refs[0]!.offset, refs[0]!.offset + refs[0]!.length);
      this.report("inline-reference-not-rewritten", node, [field.key], `${describeNode(node)} \`${field.key}\` contains ${refs.length} inline reference(s) such as ${preview(sample, 40)}, which this field does not resolve.`, {
        official: false,
        hint: field.hint,
      });
    }
    if (node.known === "template-transform") this.checkJinjaNames(node, text);
  }

  private checkJinjaNames(node: NodeEntry, template: string): void {
    const variables = node.param ? ownValue(node.param, "variables") : undefined;
    if (!isArray(variables)) return;
    // The names the template may use besides JINJA_GLOBALS (not copied per template): its variables, then its bindings.
    const declared = new Set<string>();
    for (let i = 0; i < variables.length; i += 1) {
      const entry = variables[i];
      if (isArray(entry) && typeof entry[0] === "string") declared.add(entry[0]);
    }
    // exec loops rather than matchAll, which clones the regex on every call; no binding without `{%`.
    if (template.includes("{%")) {
      JINJA_BINDING.lastIndex = 0;
      for (let match = JINJA_BINDING.exec(template); match !== null; match = JINJA_BINDING.exec(template)) {
        for (let group = 2; group < match.length; group += 1) if (match[group]) declared.add(match[group] as string);
      }
    }
    const unknown = new Set<string>();
    JINJA_EXPRESSION.lastIndex = 0;
    for (let match = JINJA_EXPRESSION.exec(template); match !== null; match = JINJA_EXPRESSION.exec(template)) {
      const name = match[2] as string;
      if (!declared.has(name) && !JINJA_GLOBALS.has(name)) unknown.add(name);
    }
    if (unknown.size === 0) return;
    this.report("template-unknown-variable", node, ["template"], `${describeNode(node)} uses {{ ${[...unknown].join(" }}, {{ ")} }}, which ${unknown.size === 1 ? "is not one of its" : "are not among its"} variables (${variablesList([...declared].filter((n) => !JINJA_GLOBALS.has(n)))}).`, {
      official: false,
      hint: "Add each name to `variables` as [name, [variable, nodeId]].",
    });
  }

  private checkTypeRules(node: NodeEntry, types: ReadonlyMap<string, JsonValue>): void {
    const param = node.param;
    if (!param) return;
    if (node.known === "document-extractor" && types.has("variable_selector")) {
      const type = types.get("variable_selector");
      if (type !== "file" && type !== "array[file]") {
        this.report("document-extractor-input-type", node, ["variable_selector"], `${describeNode(node)} reads ${preview(ownValue(param, "variable_selector"))}, typed ${preview(type)}; a document extractor needs a file or array[file].`, {
          official: true,
          hint: "Declare the start variable as file or array[file], or pass text straight to the LLM.",
        });
      }
    }
    if (node.known === "list-operator" && types.has("variable") && types.get("variable") === null) {
      this.report("list-operator-input-untyped", node, ["variable"], `${describeNode(node)} reads ${preview(ownValue(param, "variable"))}, whose type the converter cannot infer (null).`, {
        official: true,
        hint: "Feed it a typed array: a file-list start variable, a code output declared as array[...], or an iteration output whose output_selector names a child.",
      });
    }
    if (node.known === "iteration" && types.has("iterator_selector")) {
      const type = types.get("iterator_selector");
      if (typeof type === "string" && !type.startsWith("array")) {
        this.report("type-mismatch", node, ["iterator_selector"], `${describeNode(node)} iterates over ${preview(ownValue(param, "iterator_selector"))}, typed ${type}, which is not an array.`, {
          official: false,
          severity: "warning",
        });
      }
    }
    if (node.known === "if-else") this.checkBooleanOnNumber(node, types);
  }

  private checkBooleanOnNumber(node: NodeEntry, types: ReadonlyMap<string, JsonValue>): void {
    forEachCondition(node.param ? ownValue(node.param, "cases") : undefined, (condition, i, j) => {
      if (!isArray(condition) || (condition[2] !== "true" && condition[2] !== "false")) return;
      if (types.get(formatPath(["cases", i, 1, j, 0])) !== "number") return;
      this.report("if-else-boolean-on-number", node, ["cases", i, 1, j], `${describeNode(node)} compares a number with '${condition[2]}'.`, {
        official: true,
        hint: "Compare numbers with numbers (\"0\", \"1\"), or booleans with 'true'/'false'.",
      });
    });
  }

  // -- iteration outputs ------------------------------------------------------------------------------------------

  private awaitOutput(iteration: NodeEntry): void {
    const selector = iteration.param ? ownValue(iteration.param, "output_selector") : undefined;
    if (!isArray(selector) || typeof selector[1] !== "string") return;
    const waiting = this.pendingOutputs.get(selector[1]);
    if (waiting) waiting.push(iteration);
    else this.pendingOutputs.set(selector[1], [iteration]);
  }

  /** The converter types an iteration's output when its output child is built. */
  private matchOutput(node: NodeEntry): void {
    const waiting = node.id === null ? undefined : this.pendingOutputs.get(node.id);
    if (!waiting) return;
    this.pendingOutputs.delete(node.id as string);
    const child = this.registry[node.vertex];
    for (const iteration of waiting) {
      const selector = ownValue(iteration.param ?? {}, "output_selector") as JsonValue[];
      if ((node.id as string).split("-").length !== 2 || !child?.facts) continue;
      const variable = selector[0] as JsonValue;
      const path: ParamPath = ["output_selector"];
      if (typeof variable !== "string") continue;
      const lookup = officialVariableType(child.facts, variable);
      if (!lookup.ok) {
        this.reportLookupFailure(iteration, node, child.facts, variable, path, collectsText(iteration, selector), lookup.code, true);
        continue;
      }
      if (realVariableType(child.facts, variable) === undefined) {
        this.report("unknown-variable", iteration, path, `${collectsText(iteration, selector)}: ${describeNode(node)} exposes no "${variable}".`, { target: node.id as string, official: false });
      }
      const registered = iteration.id === null ? undefined : this.registry[iteration.vertex];
      if (registered?.facts?.type === "iteration") {
        registered.facts = { ...registered.facts, outputType: `array[${pyStr(lookup.type)}]`, outputChildType: lookup.type };
      }
    }
  }
}

const EMPTY_MODEL = buildModel(null);
anchorShape(new ReferenceChecker(EMPTY_MODEL, buildGraphIndex(EMPTY_MODEL), []));

export function checkReferences(model: WorkflowModel, graph: GraphIndex, out: Diagnostic[]): void {
  const nodes = model.nodes;
  for (let i = 0; i < nodes.length; i += 1) {
    if (isJsonObject((nodes[i] as NodeEntry).raw)) {
      new ReferenceChecker(model, graph, out).run();
      return;
    }
  }
}
