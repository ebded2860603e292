// Limits on the fields of imported JSON files: how long a text and how deep a nesting may be. A file over either is
// refused with the file, record and field named, before anything walks it recursively or stores it. Pure.
import { issue, type BenchmarkIssue } from "./issues";

/** 256 KiB of characters: four times the longest field in the published runs (about 123,000 characters). */
export const DEFAULT_MAX_FIELD_CHARS = 256 * 1024;

/**
 * How deep a field of an imported file may nest (a record's fields hold text, lists of outputs and small objects). A
 * deeper one is refused before anything walks it recursively (hashing, validation, scoring, storage).
 */
export const MAX_FIELD_DEPTH = 64;

/** A field path as messages show it: `outputs.text[2]`, cut to its first 120 characters. */
function fieldLabel(path: readonly (string | number)[]): string {
  const label = path.map((part, index) => (typeof part === "number" ? `[${part}]` : index === 0 ? part : `.${part}`)).join("");
  return label.length > 120 ? `${label.slice(0, 117)}…` : label;
}

/**
 * Fields of an imported JSON file longer than the cap or nested deeper than MAX_FIELD_DEPTH, each named by record
 * (an element of the top-level list, or a key of the top-level object) and field. Either rejects the import (nothing
 * is stored truncated: a page or a score built from a cut text would silently differ from the run). Walked with an
 * explicit stack, so a file nested 100,000 deep is refused like any other.
 */
export function oversizedFields(fileName: string, data: unknown, maxChars: number): BenchmarkIssue[] {
  if (!exceedsLimits(data, maxChars)) return [];
  const found: BenchmarkIssue[] = [];
  const records: [string, unknown][] = Array.isArray(data)
    ? data.map((record, index): [string, unknown] => [`record ${index}`, record])
    : typeof data === "object" && data !== null
      ? Object.entries(data).map(([key, value]): [string, unknown] => [key, value])
      : [["record 0", data]];
  for (const [record, value] of records) {
    const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
    while (stack.length > 0 && found.length < 20) {
      const { value: current, path } = stack.pop()!;
      if (typeof current === "string") {
        if (current.length > maxChars) found.push(issue(fileName, record, fieldLabel(path) || null, `${current.length} characters, over the limit of ${maxChars} per field (IMPORT_MAX_FIELD_KB)`));
        continue;
      }
      if (typeof current !== "object" || current === null) continue;
      if (path.length >= MAX_FIELD_DEPTH) {
        found.push(issue(fileName, record, fieldLabel(path.slice(0, 3)) || null, `nested deeper than ${MAX_FIELD_DEPTH} levels; a run record's fields hold text, lists and small objects`));
        break;
      }
      const children = Array.isArray(current) ? current.map((item, index): [string | number, unknown] => [index, item]) : Object.entries(current);
      for (let i = children.length - 1; i >= 0; i--) stack.push({ value: children[i]![1], path: [...path, children[i]![0]] });
    }
  }
  return found;
}


/**
 * Whether oversizedFields finds anything: the same walk without the paths its messages need, as almost every file is
 * within the limits (and the dataset is read before any scoring starts).
 */
function exceedsLimits(data: unknown, maxChars: number): boolean {
  const records: unknown[] = Array.isArray(data) ? data : typeof data === "object" && data !== null ? Object.values(data) : [data];
  const values: unknown[] = [];
  const depths: number[] = [];
  for (const record of records) {
    values.push(record);
    depths.push(0);
    while (values.length > 0) {
      const current = values.pop();
      const depth = depths.pop() as number;
      if (typeof current === "string") {
        if (current.length > maxChars) return true;
        continue;
      }
      if (typeof current !== "object" || current === null) continue;
      if (depth >= MAX_FIELD_DEPTH) return true;
      const children = Array.isArray(current) ? current : Object.values(current);
      for (let i = 0; i < children.length; i++) {
        values.push(children[i]);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
