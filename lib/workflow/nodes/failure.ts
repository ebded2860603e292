// How a conversion fails: the first condition the official converter would raise on, as one step_1_2 diagnostic.
// Thrown (and caught by the converter's entry points) so node builders read like the official straight-line code.

import { makeDiagnostic } from "../diagnostic-codes";
import type { Diagnostic, DiagnosticLocation } from "../diagnostics";
import { preview, type JsonValue } from "../python-values";
import type { ConversionFailureSpec } from "./types";

export class ConversionFailure {
  constructor(readonly diagnostic: Diagnostic) {}
}

/** Every conversion failure is an error of step_1_2, whatever the code's default (the converter throws on it). */
export function fail(spec: ConversionFailureSpec): never {
  const { code, message, ...extras } = spec;
  throw new ConversionFailure(makeDiagnostic(code, message, { ...extras, severity: "error", officialStep: "step_1_2" }));
}

/** An id as shown in messages: JSON-quoted, so newlines and quotes inside it stay visible on one line. */
export function idLabel(id: JsonValue | undefined): string {
  return preview(id, 48);
}

export function nodeLocation(id: string | undefined): DiagnosticLocation {
  return id === undefined ? {} : { nodeId: id };
}

/** `param.outputs[1][0]` for messages. */
export function formatPath(path: readonly (string | number)[]): string {
  return path.reduce<string>((out, part) => (typeof part === "number" ? `${out}[${part}]` : out ? `${out}.${part}` : part), "param") || "param";
}
