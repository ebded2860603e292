// The variable pool of one run: each node's outputs by Dify node id, read through selectors, and Dify's template
// conversion of `{{#id.var#}}` text. A value also remembers whether it derives from a mocked service (a mock model or
// a placeholder tool), so that a failure which depends on mocked content is not presented as a prediction.

import type { JsonValue } from "@/lib/workflow/python-values";
import { isDryFile, segmentText, type DryFile } from "./values";

export interface PoolValue {
  value: JsonValue;
  /** Derived from a mocked model or service: its content is a stand-in. */
  mocked: boolean;
}

// Dify's VariablePool VARIABLE_PATTERN: a node id, then 1–10 dotted identifier parts (variable_pool.py).
const VARIABLE_PATTERN = /\{\{#([a-zA-Z0-9_]{1,50}(?:\.[a-zA-Z_][a-zA-Z0-9_]{0,29}){1,10})#\}\}/g;

export class VariablePool {
  private readonly nodes = new Map<string, Map<string, PoolValue>>();
  private readonly ran = new Set<string>();
  private reads: Map<string, PoolValue> | null = null;

  constructor(private readonly parent: VariablePool | null = null) {}

  /** A child pool for one iteration round: reads fall back to the enclosing run's values. */
  child(): VariablePool {
    return new VariablePool(this);
  }

  set(nodeId: string, name: string, value: PoolValue): void {
    let outputs = this.nodes.get(nodeId);
    if (!outputs) {
      outputs = new Map();
      this.nodes.set(nodeId, outputs);
    }
    outputs.set(name, value);
  }

  setAll(nodeId: string, outputs: Readonly<Record<string, JsonValue>>, mocked: boolean): void {
    this.ran.add(nodeId);
    for (const [name, value] of Object.entries(outputs)) this.set(nodeId, name, { value, mocked });
  }

  /** Whether the node ran in this run (it may have no outputs, as an iteration-start has none). */
  hasRun(nodeId: string): boolean {
    return this.ran.has(nodeId) || (this.parent?.hasRun(nodeId) ?? false);
  }

  /** Records what `get` finds from now on (a node's inputs, for the trace); the returned function stops and answers. */
  record(): () => Map<string, PoolValue> {
    const reads = new Map<string, PoolValue>();
    this.reads = reads;
    return () => {
      if (this.reads === reads) this.reads = null;
      return reads;
    };
  }

  /** Dify's `get(selector)`: [node, variable] or, for a file or object, [node, variable, attribute]. */
  get(selector: readonly unknown[]): PoolValue | undefined {
    const found = this.lookup(selector);
    if (found && this.reads) this.reads.set(selector.map(String).join("."), found);
    return found;
  }

  private lookup(selector: readonly unknown[]): PoolValue | undefined {
    const [nodeId, name, ...rest] = selector;
    if (typeof nodeId !== "string" || typeof name !== "string") return undefined;
    const found = this.nodes.get(nodeId)?.get(name) ?? this.parent?.lookup([nodeId, name]);
    if (!found || rest.length === 0) return found;
    let value: JsonValue | undefined = found.value;
    // A file's attributes are Dify's FileAttribute names (variable_pool.py get, file_manager.get_attr).
    if (isDryFile(value)) {
      const attribute = rest.length === 1 ? fileAttribute(value, String(rest[0])) : undefined;
      return attribute === undefined ? undefined : { value: attribute, mocked: found.mocked };
    }
    for (const key of rest) {
      if (typeof key !== "string" || value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
      value = Object.prototype.hasOwnProperty.call(value, key) ? value[key] : undefined;
      if (value === undefined) return undefined;
    }
    return { value, mocked: found.mocked };
  }

  /**
   * Dify's convert_template: each `{{#id.var#}}` becomes the variable's text; a selector that names no variable stays
   * as its bare `id.var` text. The result is mocked when any variable it read was; structured when it inserted a
   * list or an object (whose text is JSON whatever its content).
   */
  render(template: string): { text: string; mocked: boolean; files: JsonValue[]; structured: boolean; missing: MissingVariable[] } {
    let mocked = false;
    let structured = false;
    const files: JsonValue[] = [];
    const missing: MissingVariable[] = [];
    const text = template.replace(VARIABLE_PATTERN, (_match, path: string) => {
      const selector = path.split(".");
      const found = this.get(selector);
      if (!found) missing.push(this.missingVariable(selector));
      if (!found || found.value === null) return found ? "" : path;
      mocked ||= found.mocked;
      if (typeof found.value === "object" && !isDryFile(found.value) && !(Array.isArray(found.value) && found.value.every(isDryFile))) structured = true;
      if (isDryFile(found.value)) files.push(found.value);
      else if (Array.isArray(found.value)) files.push(...found.value.filter(isDryFile));
      return segmentText(found.value);
    });
    return { text, mocked, files, structured, missing };
  }

  /**
   * Why a selector found nothing. Certain when its node ran and has no such variable (every executor gives the
   * output names Dify gives, whatever the content) and the path reads no mocked object; otherwise the node may
   * not have run yet, or ran on a branch or with content the mock chose.
   */
  missingVariable(selector: readonly string[]): MissingVariable {
    const [nodeId = "", name = ""] = selector;
    if (SYSTEM_NODES.has(nodeId)) return { selector: selector.join("."), certain: false };
    if (!this.hasRun(nodeId)) return { selector: selector.join("."), certain: false };
    const base = this.lookup([nodeId, name]);
    return { selector: selector.join("."), certain: !base || (!base.mocked && selector.length > 2) };
  }
}

export interface MissingVariable {
  selector: string;
  /** The real run misses it too, whatever the model writes. */
  certain: boolean;
}

// Variables Dify's pool holds outside any node (system, environment and conversation variables).
const SYSTEM_NODES = new Set(["sys", "env", "conversation"]);

/** A file attribute as Dify's file_manager.get_attr answers it; undefined for a name that is not an attribute. */
function fileAttribute(file: DryFile, attribute: string): JsonValue | undefined {
  switch (attribute) {
    case "type": return file.type;
    case "size": return file.size;
    case "name": return file.filename;
    case "mime_type": return file.mime_type;
    case "transfer_method": return file.transfer_method;
    case "url": return `https://files.invalid/${file.filename}`;
    case "extension": return file.extension;
    case "related_id": return null;
    default: return undefined;
  }
}
