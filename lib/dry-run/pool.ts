// The variable pool of one run: each node's outputs by Dify node id, read through selectors, and Dify's template
// conversion of `{{#id.var#}}` text. A value also remembers whether it derives from a mocked service (a mock model or
// a placeholder tool), so that a failure which depends on mocked content is not presented as a prediction.

import type { JsonValue } from "@/lib/workflow/python-values";
import { isDryFile, segmentText } from "./values";

export interface PoolValue {
  value: JsonValue;
  /** Derived from a mocked model or service: its content is a stand-in. */
  mocked: boolean;
}

// Dify's VariablePool VARIABLE_PATTERN: a node id, then 1–10 dotted identifier parts (variable_pool.py).
const VARIABLE_PATTERN = /\{\{#([a-zA-Z0-9_]{1,50}(?:\.[a-zA-Z_][a-zA-Z0-9_]{0,29}){1,10})#\}\}/g;

export class VariablePool {
  private readonly nodes = new Map<string, Map<string, PoolValue>>();

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
    for (const [name, value] of Object.entries(outputs)) this.set(nodeId, name, { value, mocked });
  }

  /** Dify's `get(selector)`: [node, variable] or, for a file or object, [node, variable, attribute]. */
  get(selector: readonly unknown[]): PoolValue | undefined {
    const [nodeId, name, ...rest] = selector;
    if (typeof nodeId !== "string" || typeof name !== "string") return undefined;
    const found = this.nodes.get(nodeId)?.get(name) ?? this.parent?.get([nodeId, name]);
    if (!found || rest.length === 0) return found;
    let value: JsonValue | undefined = found.value;
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
  render(template: string): { text: string; mocked: boolean; files: JsonValue[]; structured: boolean } {
    let mocked = false;
    let structured = false;
    const files: JsonValue[] = [];
    const text = template.replace(VARIABLE_PATTERN, (_match, path: string) => {
      const found = this.get(path.split("."));
      if (!found || found.value === null) return found ? "" : path;
      mocked ||= found.mocked;
      if (typeof found.value === "object" && !isDryFile(found.value) && !(Array.isArray(found.value) && found.value.every(isDryFile))) structured = true;
      if (isDryFile(found.value)) files.push(found.value);
      else if (Array.isArray(found.value)) files.push(...found.value.filter(isDryFile));
      return segmentText(found.value);
    });
    return { text, mocked, files, structured };
  }
}
