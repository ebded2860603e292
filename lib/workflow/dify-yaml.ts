// Serialises a Dify DSL document to YAML the way the official export does (block style, sorted keys, unicode kept),
// and parses DSL YAML back. Strings that YAML 1.1 (Dify's PyYAML) would read as booleans or numbers are quoted.
//
// Public API (stable):
//   toDifyYaml(dsl) -> string
//   parseDifyYaml(text) -> Result<unknown, string>   (never throws; the issue is the parser's message)

import { parse, stringify } from "yaml";
import { err, ok, type Result } from "../result";
import type { DifyDsl } from "./dify-dsl";

const STRINGIFY_OPTIONS = {
  sortMapEntries: true,
  // YAML 1.1 quoting: "yes", "on", "0.5" and the like stay strings for PyYAML.
  version: "1.1",
  lineWidth: 0,
  indent: 2,
  // Never emit anchors/aliases for shared objects: the official export writes every value out in full.
  aliasDuplicateObjects: false,
} as const;

export function toDifyYaml(dsl: DifyDsl): string {
  return stringify(dsl, STRINGIFY_OPTIONS);
}

export function parseDifyYaml(text: string): Result<unknown, string> {
  try {
    return ok(parse(text, { version: "1.1" }));
  } catch (error) {
    return err(error instanceof Error ? error.message : String(error));
  }
}
