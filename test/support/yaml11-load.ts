// Loads YAML the way PyYAML's safe_load (Dify's importer) resolves it: every plain scalar goes through the YAML 1.1
// implicit types, so a string written unquoted comes back as a boolean, number, null, date, or fails to load.
import { isAlias, isMap, isScalar, isSeq, parseDocument, Scalar, type Node } from "yaml";
import { YAML_1_1_PLAIN_TYPES } from "../../lib/workflow/dify-yaml";

function resolveNumber(source: string, type: "int" | "float"): number {
  const text = source.replace(/_/g, "");
  const sign = text.startsWith("-") ? -1 : 1;
  const digits = text.replace(/^[-+]/, "");
  if (digits.includes(":")) return sign * digits.split(":").reduce((total, part) => total * 60 + Number(part), 0);
  if (type === "float") {
    if (/^\.inf$/i.test(digits)) return sign * Infinity;
    if (/^\.nan$/i.test(digits)) return NaN;
    return sign * Number(digits);
  }
  if (digits.startsWith("0b")) return sign * parseInt(digits.slice(2), 2);
  if (digits.startsWith("0x")) return sign * parseInt(digits.slice(2), 16);
  if (digits.length > 1 && digits.startsWith("0")) return sign * parseInt(digits.slice(1), 8);
  return sign * Number(digits);
}

function resolvePlain(source: string): unknown {
  const match = YAML_1_1_PLAIN_TYPES.find(({ pattern }) => pattern.test(source));
  switch (match?.type) {
    case undefined:
      return source;
    case "bool":
      return /^(?:yes|true|on)$/i.test(source);
    case "null":
      return null;
    case "int":
    case "float":
      return resolveNumber(source, match.type);
    case "timestamp":
      return new Date(source);
    case "merge":
    case "value":
      throw new Error(`could not determine a constructor for the tag 'tag:yaml.org,2002:${match.type}' (plain scalar ${JSON.stringify(source)})`);
  }
}

function toValue(node: Node | null): unknown {
  if (node === null) return null;
  if (isScalar(node)) {
    if (node.type === Scalar.PLAIN && typeof node.source === "string") return resolvePlain(node.source);
    return node.source ?? node.value;
  }
  if (isSeq(node)) return node.items.map((item) => toValue(item as Node | null));
  if (isMap(node)) {
    const result: Record<string, unknown> = {};
    for (const pair of node.items) result[String(toValue(pair.key as Node | null))] = toValue(pair.value as Node | null);
    return result;
  }
  if (isAlias(node)) throw new Error("aliases are not expected in an export");
  throw new Error("unexpected YAML node");
}

/** Parses `text` and resolves every plain scalar by the YAML 1.1 rules PyYAML applies; throws where PyYAML would. */
export function loadAsYaml11(text: string): unknown {
  const document = parseDocument(text, { version: "1.1", keepSourceTokens: true });
  if (document.errors.length > 0) throw new Error(document.errors[0]?.message);
  return toValue(document.contents as Node | null);
}
