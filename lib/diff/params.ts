// Field-level diff of two matched nodes' params: added / removed / changed leaves with their paths, list elements
// aligned (LCS, then by similarity), node ids in selectors and {{#id.var#}} mapped so a renumbering changes nothing.
// Total over any JSON values; reported before/after values are the raw ones as written; long texts get a text diff.

import type { ParamPath } from "../workflow/catalog";
import { findInlineReferences } from "../workflow/convert";
import { isJsonObject, ownValue, type JsonValue } from "../workflow/python-values";
import { maxWeightAssignment } from "./assignment";
import { bagSimilarity, canonicalJson } from "./keys";
import type { SideNode } from "./side";
import { isLongText, textDiff } from "./text-diff";
import type { FieldChange } from "./types";

type KeyOf = (node: SideNode | null, id: string | null) => string;

function canonicaliseInline(text: string, keyOf: KeyOf, resolve: (id: string) => SideNode | null): string {
  const refs = findInlineReferences(text);
  if (refs.length === 0) return text;
  let out = "";
  let at = 0;
  for (const ref of refs) {
    out += text.slice(at, ref.offset);
    const target = ref.nodeId === null ? null : resolve(ref.nodeId);
    out += `{{#${ref.nodeId === null ? `!${ref.token}` : keyOf(target, ref.nodeId)}.${ref.variable}#}}`;
    at = ref.offset + ref.length;
  }
  return out + text.slice(at);
}

/**
 * The node's param with every selector id replaced by the key of the node it names (in later-workflow terms) and
 * every inline reference rewritten the same way. Same shape as the raw param, so raw values can be read by path.
 */
export function normaliseParam(node: SideNode, keyOf: KeyOf, resolve: (id: string) => SideNode | null): JsonValue | undefined {
  const walk = (value: JsonValue, path: ParamPath): JsonValue => {
    if (value === null || typeof value !== "object") {
      if (node.selectorIdPaths.has(path.join("\u0001"))) {
        const id = typeof value === "string" || typeof value === "number" ? String(value) : null;
        const key = id === null ? `!${canonicalJson(value)}` : keyOf(resolve(id), id);
        return typeof value === "string" ? `@${key}` : `@${key}:${typeof value}`;
      }
      return typeof value === "string" && value.includes("{{#") ? canonicaliseInline(value, keyOf, resolve) : value;
    }
    if (Array.isArray(value)) return value.map((item, i) => walk(item, [...path, i]));
    const out: Record<string, JsonValue> = {};
    for (const key of Object.keys(value)) {
      // defineProperty keeps a "__proto__" key as data.
      Object.defineProperty(out, key, { value: walk(ownValue(value, key) as JsonValue, [...path, key]), enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  const param = node.entry.rawParam;
  return param === undefined ? undefined : walk(param, []);
}

interface Side {
  norm: JsonValue | undefined;
  raw: JsonValue | undefined;
  path: ParamPath;
}

function samePath(a: ParamPath, b: ParamPath): boolean {
  return a.length === b.length && a.every((part, i) => part === b[i]);
}

function change(out: FieldChange[], op: FieldChange["op"], before: Side | null, after: Side | null): void {
  const path = (after ?? before)?.path ?? [];
  const entry: FieldChange = { op, path };
  if (before && after && !samePath(before.path, after.path)) entry.beforePath = before.path;
  if (before && before.raw !== undefined) entry.before = before.raw;
  if (after && after.raw !== undefined) entry.after = after.raw;
  if (op === "changed" && typeof before?.raw === "string" && typeof after?.raw === "string" && isLongText(before.raw, after.raw)) {
    entry.text = textDiff(before.raw, after.raw);
  }
  out.push(entry);
}

function child(side: Side, key: string | number): Side {
  const pick = (value: JsonValue | undefined): JsonValue | undefined => {
    if (value === undefined || value === null || typeof value !== "object") return undefined;
    if (Array.isArray(value)) return typeof key === "number" ? value[key] : undefined;
    return ownValue(value, String(key));
  };
  return { norm: pick(side.norm), raw: pick(side.raw), path: [...side.path, key] };
}

const WORD = /[\p{L}\p{N}_@#.]+/gu;

function wordBag(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const match of text.toLowerCase().matchAll(WORD)) out.set(match[0], (out.get(match[0]) ?? 0) + 1);
  return out;
}

/** Longest common subsequence of two key lists, as index pairs in order. */
function lcs(a: readonly string[], b: readonly string[]): [number, number][] {
  const n = a.length;
  const m = b.length;
  const table = new Uint16Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      table[i * (m + 1) + j] = a[i] === b[j] ? (table[(i + 1) * (m + 1) + j + 1] as number) + 1 : Math.max(table[(i + 1) * (m + 1) + j] as number, table[i * (m + 1) + j + 1] as number);
    }
  }
  const out: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push([i, j]);
      i += 1;
      j += 1;
    } else if ((table[(i + 1) * (m + 1) + j] as number) >= (table[i * (m + 1) + j + 1] as number)) i += 1;
    else j += 1;
  }
  return out;
}

/** Canonical strings of the normalised subtrees, computed once per subtree. */
type Cache = WeakMap<object, string>;

function diffGap(before: Side, after: Side, beforeIdx: number[], afterIdx: number[], keysB: readonly string[], keysA: readonly string[], out: FieldChange[], cache: Cache): void {
  if (beforeIdx.length === 0 && afterIdx.length === 0) return;
  let pairs: [number, number][];
  if (beforeIdx.length === afterIdx.length) {
    pairs = beforeIdx.map((i, k) => [i, afterIdx[k] as number]);
  } else {
    const bagsB = beforeIdx.map((i) => wordBag(keysB[i] as string));
    const bagsA = afterIdx.map((j) => wordBag(keysA[j] as string));
    const scores = bagsB.map((b, r) =>
      bagsA.map((a, c) => {
        const score = bagSimilarity(b, a) ?? 1;
        return score < 0.3 ? null : score + 0.001 * (1 - Math.abs(r - c) / Math.max(bagsB.length, bagsA.length));
      }),
    );
    pairs = maxWeightAssignment(scores).map(({ row, column }) => [beforeIdx[row] as number, afterIdx[column] as number]);
  }
  const pairedB = new Set(pairs.map(([i]) => i));
  // Removals first, then the later side's elements in order (paired ones diffed, the rest added).
  for (const i of beforeIdx) if (!pairedB.has(i)) change(out, "removed", child(before, i), null);
  const partnerOf = new Map(pairs.map(([i, j]) => [j, i]));
  for (const j of afterIdx) {
    const i = partnerOf.get(j);
    if (i === undefined) change(out, "added", null, child(after, j));
    else diffSides(child(before, i), child(after, j), out, cache);
  }
}

function diffArrays(before: Side, after: Side, b: JsonValue[], a: JsonValue[], out: FieldChange[], cache: Cache): void {
  const keysB = b.map((item) => canonicalJson(item, cache));
  const keysA = a.map((item) => canonicalJson(item, cache));
  let i = 0;
  let j = 0;
  for (const [mi, mj] of [...lcs(keysB, keysA), [b.length, a.length] as [number, number]]) {
    const gapB: number[] = [];
    const gapA: number[] = [];
    for (; i < mi; i += 1) gapB.push(i);
    for (; j < mj; j += 1) gapA.push(j);
    diffGap(before, after, gapB, gapA, keysB, keysA, out, cache);
    i = mi + 1;
    j = mj + 1;
  }
}

function diffSides(before: Side, after: Side, out: FieldChange[], cache: Cache): void {
  const b = before.norm;
  const a = after.norm;
  if (b === undefined && a === undefined) return;
  if (b === undefined) return change(out, "added", null, after);
  if (a === undefined) return change(out, "removed", before, null);
  if (b === a || canonicalJson(b, cache) === canonicalJson(a, cache)) return;
  if (isJsonObject(b) && isJsonObject(a)) {
    const keys = [...Object.keys(a), ...Object.keys(b).filter((key) => ownValue(a, key) === undefined)];
    for (const key of keys) diffSides(child(before, key), child(after, key), out, cache);
    return;
  }
  if (Array.isArray(b) && Array.isArray(a)) return diffArrays(before, after, b, a, out, cache);
  change(out, "changed", before, after);
}

/** Param changes of a matched pair, ids mapped into the later workflow's terms. */
export function diffParams(before: SideNode, after: SideNode, keyBefore: KeyOf, keyAfter: KeyOf, resolveBefore: (id: string) => SideNode | null, resolveAfter: (id: string) => SideNode | null): FieldChange[] {
  const out: FieldChange[] = [];
  diffSides(
    { norm: normaliseParam(before, keyBefore, resolveBefore), raw: before.entry.rawParam, path: [] },
    { norm: normaliseParam(after, keyAfter, resolveAfter), raw: after.entry.rawParam, path: [] },
    out,
    new WeakMap(),
  );
  return out;
}
