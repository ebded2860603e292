// Serialises a Dify DSL document to YAML as the official export does and parses it back, quoting every string a
// YAML 1.1 loader (Dify's PyYAML) would read as something else.

import { Document, parse, Scalar, visit, type ScalarTag, type Tags } from "yaml";
import { err, ok, type Result } from "../result";
import type { DifyDsl } from "./dify-dsl";
import { Yaml11Emitter } from "./yaml-emit";

/**
 * PyYAML's implicit resolvers (yaml/resolver.py), which Dify applies to every plain scalar it imports. The `yaml`
 * package's own 1.1 schema misses `=` (the "value" type, which PyYAML cannot construct) and `<<` outside a key, and
 * is narrower than PyYAML for some timestamps, so the export tests against these as well.
 */
export const YAML_1_1_PLAIN_TYPES = [
  { type: "bool", pattern: /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/ },
  {
    type: "float",
    pattern:
      /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/,
  },
  {
    type: "int",
    pattern: /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/,
  },
  { type: "merge", pattern: /^<<$/ },
  { type: "null", pattern: /^(?:~|null|Null|NULL|)$/ },
  {
    type: "timestamp",
    pattern:
      /^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$/,
  },
  { type: "value", pattern: /^=$/ },
] as const;

// Tags that never claim a value (identify is always false) but make the stringifier quote a string matching them.
const QUOTE_ONLY_TAGS: ScalarTag[] = YAML_1_1_PLAIN_TYPES.map(({ type, pattern }) => ({
  tag: `tag:studio.local,2026:yaml-1.1-${type}`,
  default: true,
  test: pattern,
  identify: () => false,
  resolve: (source: string) => source,
}));

const MERGE_TAG = "tag:yaml.org,2002:merge";

// YAML 1.1 counts these as line breaks inside any scalar; they are safe only as escapes in a double-quoted string.
const YAML_1_1_LINE_BREAKS = /[\u0085\u2028\u2029]/;
const LINE_BREAK_ESCAPES: Record<string, string> = { "\u0085": "\\N", "\u2028": "\\L", "\u2029": "\\P" };

const STRINGIFY_OPTIONS = {
  sortMapEntries: true,
  // YAML 1.1 quoting ("yes", "on", "0.5" stay strings), widened to PyYAML's resolvers by QUOTE_ONLY_TAGS.
  version: "1.1",
  // Without the merge tag, a "<<" key is an ordinary string (quoted below) rather than a merge of the mapping after it.
  customTags: (tags: Tags): Tags => [...tags.filter((tag) => (typeof tag === "string" ? tag !== "merge" : tag.tag !== MERGE_TAG)), ...QUOTE_ONLY_TAGS],
  lineWidth: 0,
  indent: 2,
  // Never emit anchors/aliases for shared objects: the official export writes every value out in full.
  aliasDuplicateObjects: false,
} as const;

export function toDifyYaml(dsl: DifyDsl): string {
  return toYaml11(dsl);
}

// Every test the stringifier applies to a plain string before writing it unquoted: the schema's resolvers and ours.
function plainResolverTests(): RegExp[] {
  const { tags, compat } = new Document(null, STRINGIFY_OPTIONS).schema;
  const tests: RegExp[] = [];
  for (const tag of [...tags, ...(compat ?? [])]) {
    if (tag.default !== true || tag.tag === "tag:yaml.org,2002:str" || !(tag.test instanceof RegExp)) continue;
    tests.push(new RegExp(tag.test.source, tag.test.flags.replace(/[gy]/g, "")));
  }
  return tests;
}

let emitter: Yaml11Emitter | null = null;

/** toYaml11's text written directly, or null where only the library path knows how (toYaml11 then uses it). */
export function toYaml11Direct(value: unknown): string | null {
  emitter ??= new Yaml11Emitter(plainResolverTests());
  return emitter.emit(value);
}

/** Block style, sorted keys, unicode kept; a PyYAML safe_load reads every string back as that string. */
export function toYaml11(value: unknown): string {
  return toYaml11Direct(value) ?? toYaml11ByLibrary(value);
}

/** The `yaml` package's serialisation, which toYaml11 reproduces directly for plain data (and falls back to). */
export function toYaml11ByLibrary(value: unknown): string {
  const document = new Document(value, STRINGIFY_OPTIONS);
  let hasLineBreakCharacters = false;
  visit(document, {
    Scalar(_key, node) {
      if (typeof node.value === "string" && YAML_1_1_LINE_BREAKS.test(node.value)) {
        node.type = Scalar.QUOTE_DOUBLE;
        hasLineBreakCharacters = true;
      }
    },
  });
  const text = document.toString(STRINGIFY_OPTIONS);
  // Every scalar holding one of these characters is double-quoted above, so each one left in the text is inside a
  // double-quoted string, where the escape means the same character.
  return hasLineBreakCharacters ? text.replace(/[\u0085\u2028\u2029]/g, (character) => LINE_BREAK_ESCAPES[character] ?? character) : text;
}

export function parseDifyYaml(text: string): Result<unknown, string> {
  return parseYaml11(text);
}

export function parseYaml11(text: string): Result<unknown, string> {
  try {
    return ok(parse(text, { version: "1.1" }));
  } catch (error) {
    return err(error instanceof Error ? error.message : String(error));
  }
}
