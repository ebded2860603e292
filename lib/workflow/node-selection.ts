// Parses a response's free-text `<node_selection>` into the set of node types it declares (spec §5.4).
// Pure and total: any string yields declared types with their source spans plus the fragments it could not map.

import { NODE_TYPE_IDS, NODE_TYPES, type NodeTypeId } from "./node-types";
import { pyStripChars } from "./python-values";

/** A node type the selection declares, with the span of the original text it was read from. */
export interface DeclaredNode {
  type: NodeTypeId;
  /** The text that named the type, as written (e.g. "Text to Speech"). */
  text: string;
  /** 0-based offset and length inside the node_selection string passed to the parser. */
  offset: number;
  length: number;
  /** "name" when the whole item was a node name, "scan" when found inside a sentence-like item. */
  via: "name" | "scan";
  /** How the text relates to the type id; the recorded judge was strict about anything but case (§5.3). */
  form: NameForm;
}

/**
 * "id": the type id up to case; "display": the display name or the id with other spacing or hyphens;
 * "alias": another accepted name; "misspelling": a known typo the alias table accepts ("Markdown Exportor").
 */
export type NameForm = "id" | "display" | "alias" | "misspelling";

/** A list item that names no known node type. */
export interface UnmappedFragment {
  text: string;
  offset: number;
  length: number;
}

export interface NodeSelectionParse {
  /** Every mention, in text order (a type may appear several times). */
  mentions: DeclaredNode[];
  /** The declared set, unique, in order of first mention. */
  types: NodeTypeId[];
  unmapped: UnmappedFragment[];
}

const NEWLINE = /\n/g;

/**
 * The official judge-input preprocessing (§5.2): newlines trimmed at both ends, inner newlines become ", ".
 * Exposed so the judge prompt can be rebuilt verbatim; the parser below works on the original text instead.
 */
export function officialNodeSelectionText(nodeSelection: string): string {
  return pyStripChars(nodeSelection, "\n").replace(NEWLINE, ", ");
}

// ---------------------------------------------------------------------------------------------------------------
// Name table: normalised key -> type id.

const NORMALISE_STRIP = /[\s\-_]+/g;

/** Lower-case and drop spaces, hyphens and underscores, so "Iteration-Start" == "iteration start". */
export function normaliseNodeName(name: string): string {
  return name.toLowerCase().replace(NORMALISE_STRIP, "");
}

function namesOf(type: NodeTypeId): string[] {
  const info = NODE_TYPES[type];
  return [type, info.displayName, ...info.aliases];
}

const NAME_TABLE: ReadonlyMap<string, NodeTypeId> = (() => {
  const table = new Map<string, NodeTypeId>();
  for (const type of NODE_TYPE_IDS) {
    for (const name of namesOf(type)) table.set(normaliseNodeName(name), type);
  }
  return table;
})();

/** Alias keys (normalised) that are misspellings rather than names; a strict judge would reject them. */
const MISSPELLINGS: ReadonlySet<string> = new Set(["markdownexportor"]);

const NODE_SUFFIX = /nodes?$/;
const isDigit = (code: number) => code >= 48 && code <= 57;
const isTimes = (char: string | undefined) => char === "x" || char === "×";

/** `key` without a trailing "x2" or "2x" (what `/(?:[x×]\d+|\d+[x×])$/` removes), read from the end in one pass. */
function withoutMultiplicity(key: string): string {
  const timesLast = isTimes(key[key.length - 1]);
  let start = key.length - (timesLast ? 1 : 0);
  while (start > 0 && isDigit(key.charCodeAt(start - 1))) start -= 1;
  const digits = key.length - (timesLast ? 1 : 0) - start;
  if (digits === 0) return key;
  if (timesLast) return key.slice(0, start);
  return isTimes(key[start - 1]) ? key.slice(0, start - 1) : key;
}

interface NameHit {
  type: NodeTypeId;
  /** The normalised key that matched, after dropping "node" and "x2" suffixes. */
  key: string;
}

function lookupName(name: string): NameHit | null {
  let key = normaliseNodeName(name);
  for (let attempt = 0; attempt < 3 && key !== ""; attempt += 1) {
    const type = NAME_TABLE.get(key);
    if (type) return { type, key };
    const trimmed = withoutMultiplicity(key.replace(NODE_SUFFIX, ""));
    if (trimmed === key) return null;
    key = trimmed;
  }
  return null;
}

/**
 * Maps one node name as a model might write it ("Text to Speech", "template", "LLM x2", "Code node") to its type.
 * Returns null for anything that is not a whole node name.
 */
export function matchNodeTypeName(name: string): NodeTypeId | null {
  return lookupName(name)?.type ?? null;
}

/** Normalised keys of each type's id and display name. */
const DISPLAY_KEYS: ReadonlySet<string> = new Set(
  NODE_TYPE_IDS.flatMap((type) => [normaliseNodeName(type), normaliseNodeName(NODE_TYPES[type].displayName)]),
);

function formOf(text: string, hit: NameHit): NameForm {
  if (text.trim().toLowerCase() === hit.type) return "id";
  if (DISPLAY_KEYS.has(hit.key) && NAME_TABLE.get(hit.key) === hit.type) return "display";
  return MISSPELLINGS.has(hit.key) ? "misspelling" : "alias";
}

// ---------------------------------------------------------------------------------------------------------------
// Fallback scan for names inside sentence-like items ("Keeping Start and LLM nodes").

/** Single words that are ordinary English when written in lower case; only capitalised forms count as names. */
const COMMON_WORDS: ReadonlySet<string> = new Set([
  "start",
  "end",
  "code",
  "template",
  "iteration",
  "condition",
  "classifier",
  "aggregator",
  "google",
  "loop",
]);

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function namePattern(name: string): string {
  return name
    .split(/[\s\-_]+/)
    .filter((part) => part !== "")
    .map(escapeRegex)
    .join("[\\s_-]*");
}

const SCAN_REGEX: RegExp = (() => {
  const names = new Set<string>();
  for (const type of NODE_TYPE_IDS) for (const name of namesOf(type)) names.add(name);
  const ordered = [...names].sort((a, b) => b.length - a.length);
  return new RegExp(`(?<![A-Za-z0-9])(?:${ordered.map(namePattern).join("|")})(?![A-Za-z0-9])`, "gi");
})();

const HAS_UPPER = /[A-Z]/;

function acceptScanMatch(matched: string): boolean {
  const key = normaliseNodeName(matched);
  return !COMMON_WORDS.has(key) || HAS_UPPER.test(matched);
}

/** Names found inside a sentence-like item, at offsets of the item. */
function scanNames(core: Fragment, out: MentionSpan[]): void {
  SCAN_REGEX.lastIndex = 0;
  for (let m = SCAN_REGEX.exec(core.text); m !== null; m = SCAN_REGEX.exec(core.text)) {
    const matched = m[0];
    const hit = lookupName(matched);
    if (hit && acceptScanMatch(matched)) out.push({ type: hit.type, offset: core.offset + m.index, length: matched.length, via: "scan", form: formOf(matched, hit) });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Length-preserving masking, so every fragment keeps its offsets in the original text.

const TAG_PAIR = /<([^<>\n/]{1,80})>([^<>]*)<\/\1\s*>/g;
const STRAY_TAG = /<\/?[^<>\n]{0,80}>/g;
const SEPARATOR_CHAR = ",";

/** `<LLM></LLM>` lists: keep the name (or the content when there is one) and turn the markup into separators. */
function maskTagLists(text: string): string {
  if (!text.includes("<")) return text;
  const paired = text.replace(TAG_PAIR, (whole, name: string, content: string) => {
    const open = 1 + name.length + 1;
    const close = whole.length - open - content.length;
    if (content.trim() === "") {
      return `${SEPARATOR_CHAR}${name}${SEPARATOR_CHAR}${content}${SEPARATOR_CHAR.repeat(close)}`;
    }
    return `${SEPARATOR_CHAR.repeat(open)}${content}${SEPARATOR_CHAR.repeat(close)}`;
  });
  return paired.replace(STRAY_TAG, (tag) => SEPARATOR_CHAR.repeat(tag.length));
}

const NEWLINE_CODE = 10;
/** The code units that change the masking: brackets and the newline. Between two of them nothing changes. */
const MASK_EVENT = /[(（[)）\]\n]/g;

/** What masking builds: the text so far, where the pending unmasked run starts, where the masked run being built starts. */
interface Masking {
  out: string;
  keptFrom: number;
  /** -1 outside a masked run. */
  maskedFrom: number;
}

/** Sets code unit `at` (and the run it starts) masked or not. */
function maskFrom(text: string, state: Masking, at: number, masked: boolean): void {
  if (masked && state.maskedFrom < 0) {
    state.out += text.slice(state.keptFrom, at);
    state.maskedFrom = at;
  } else if (!masked && state.maskedFrom >= 0) {
    state.out += " ".repeat(at - state.maskedFrom);
    state.maskedFrom = -1;
    state.keptFrom = at;
  }
}

/**
 * Blanks parenthesised text (nested too); an unclosed "(" blanks to the end of its line. Walks code units: every
 * bracket and the newline are single units, and both halves of a masked surrogate pair become one blank each. Only
 * brackets and newlines are visited: the units between them share the masking of the one right after the last.
 */
export function maskParentheses(text: string): string {
  if (!/[(（[)）\]]/.test(text)) return text;
  const state: Masking = { out: "", keptFrom: 0, maskedFrom: -1 };
  let depth = 0;
  let next = 0;
  MASK_EVENT.lastIndex = 0;
  for (let event = MASK_EVENT.exec(text); event !== null; event = MASK_EVENT.exec(text)) {
    const at = event.index;
    if (at > next) maskFrom(text, state, next, depth > 0);
    const code = text.charCodeAt(at);
    let masked = false;
    if (code === NEWLINE_CODE) {
      depth = 0;
    } else {
      // "(", "（", "[" open and ")", "）", "]" close.
      if (code === 0x28 || code === 0xff08 || code === 0x5b) depth += 1;
      const closing = code === 0x29 || code === 0xff09 || code === 0x5d;
      masked = depth > 0 || closing;
      if (closing && depth > 0) depth -= 1;
    }
    maskFrom(text, state, at, masked);
    next = at + 1;
  }
  if (text.length > next) maskFrom(text, state, next, depth > 0);
  return state.maskedFrom >= 0 ? state.out + " ".repeat(text.length - state.maskedFrom) : state.out + text.slice(state.keptFrom);
}

const LIST_PREFIX = /(?:\s+|\d+\s*[.)、](?=\s|$)|[-*•+>#·]+(?=\s|$)|[*`]+)/y;
const DECORATION = /[*`]/g;
const CUT_MARKER = /\s[-–—]\s|[:：]|\s[-–—]$/;
const IGNORED_ITEM = /^(?:removing|deleting|removed|deleted)\b/i;

interface Fragment {
  text: string;
  offset: number;
}

/** `,` `;` newline and their full-width forms (，；、). */
const SEPARATOR = /[,;\n，；、]/g;

/** Strips list numbering, bullets and decoration, and cuts descriptions after " - " or ":". */
function coreOf(fragment: Fragment): Fragment | null {
  // Prefixes are matched where the previous one ended (sticky), never by re-slicing the rest of the item.
  let prefixEnd = 0;
  for (LIST_PREFIX.lastIndex = 0; LIST_PREFIX.test(fragment.text) && LIST_PREFIX.lastIndex > prefixEnd; ) prefixEnd = LIST_PREFIX.lastIndex;
  const offset = fragment.offset + prefixEnd;
  let text = fragment.text.slice(prefixEnd).replace(DECORATION, " ");
  const cut = CUT_MARKER.exec(text);
  if (cut) text = text.slice(0, cut.index);
  const lead = text.length - text.trimStart().length;
  text = text.trim();
  if (text === "") return null;
  return { text, offset: offset + lead };
}

interface Span {
  offset: number;
  length: number;
}

interface MentionSpan extends Span {
  type: NodeTypeId;
  via: DeclaredNode["via"];
  form: NameForm;
}

/** What one list item names, at offsets of the item: the same for every item with the same text. */
interface ItemReading {
  mentions: MentionSpan[];
  /** The item's core when it names nothing. */
  unmapped: Span | null;
}

const NOTHING: ItemReading = { mentions: [], unmapped: null };

function readItem(item: string): ItemReading {
  const core = coreOf({ text: item, offset: 0 });
  if (!core || IGNORED_ITEM.test(core.text)) return NOTHING;
  const hit = lookupName(core.text);
  if (hit) return { mentions: [{ type: hit.type, offset: core.offset, length: core.text.length, via: "name", form: formOf(core.text, hit) }], unmapped: null };
  const mentions: MentionSpan[] = [];
  scanNames(core, mentions);
  return { mentions, unmapped: mentions.length === 0 ? { offset: core.offset, length: core.text.length } : null };
}

// Selections repeat a few hundred items (" LLM", " End") across thousands of responses: each is read once. Bounded,
// so that hostile text cannot grow it without limit.
const ITEM_READINGS = new Map<string, ItemReading>();
const MAX_ITEM_READINGS = 4096;
const MAX_REMEMBERED_ITEM = 200;

function readingOf(item: string): ItemReading {
  let reading = ITEM_READINGS.get(item);
  if (reading) return reading;
  reading = readItem(item);
  if (item.length <= MAX_REMEMBERED_ITEM && ITEM_READINGS.size < MAX_ITEM_READINGS) ITEM_READINGS.set(item, reading);
  return reading;
}

/** Parses a node_selection text. Never throws; non-strings give an empty result. */
export function parseNodeSelection(nodeSelection: string | null | undefined): NodeSelectionParse {
  const source = typeof nodeSelection === "string" ? nodeSelection : "";
  const masked = maskParentheses(maskTagLists(source));
  const parse: NodeSelectionParse = { mentions: [], types: [], unmapped: [] };
  // Each item between separators (found natively by the regex) is read where it lies, with no list of items.
  let start = 0;
  SEPARATOR.lastIndex = 0;
  for (let found = SEPARATOR.exec(masked); ; found = SEPARATOR.exec(masked)) {
    const end = found === null ? masked.length : found.index;
    if (end > start) addItem(parse, source, start, readingOf(masked.slice(start, end)));
    if (found === null) return parse;
    start = end + 1;
  }
}

/** Adds what the item at `itemOffset` names (read from the masked text) with the source text it covers. */
function addItem(parse: NodeSelectionParse, source: string, itemOffset: number, reading: ItemReading): void {
  for (let i = 0; i < reading.mentions.length; i += 1) {
    const mention = reading.mentions[i] as MentionSpan;
    const offset = itemOffset + mention.offset;
    parse.mentions.push({ type: mention.type, text: source.slice(offset, offset + mention.length), offset, length: mention.length, via: mention.via, form: mention.form });
    if (!parse.types.includes(mention.type)) parse.types.push(mention.type);
  }
  if (reading.unmapped) {
    const offset = itemOffset + reading.unmapped.offset;
    parse.unmapped.push({ text: source.slice(offset, offset + reading.unmapped.length), offset, length: reading.unmapped.length });
  }
}
