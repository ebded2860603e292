// The data a workflow diff is made of: inputs (two sides), node/edge/reference/I-O changes, the ordered change list.
// Types only (plus the list of change kinds); every value is plain JSON-like data that a page can render or serialise.

import type { TurnSpec } from "../benchmark/turn";
import type { ParamPath } from "../workflow/catalog";
import type { NodeTypeId } from "../workflow/node-types";
import type { JsonValue } from "../workflow/python-values";

/** What a diff needs of a benchmark turn: the task's required inputs, outputs and key nodes. */
export type DiffTurn = Pick<TurnSpec, "inputVars" | "outputVars" | "keyNodes">;

/** One side of a diff. */
export interface DiffSide {
  /** The parsed workflow JSON value. Anything is accepted: broken workflows diff as far as they can be read. */
  workflow: unknown;
  /** The `<node_selection>` text: undefined = do not compare selections; null = the tag was missing. */
  nodeSelection?: string | null;
  /** The turn's specification; the task's requirements are compared only when both sides give one. */
  turn?: DiffTurn | null;
}

export type DiffIssueCode =
  | "no-workflow"
  | "not-an-object"
  | "no-nodes-info"
  | "edges-not-a-list"
  | "node-not-object"
  | "missing-id"
  | "duplicate-id"
  | "edge-malformed";

/** Something on one side that could not be read; the diff goes on without it. */
export interface DiffIssue {
  code: DiffIssueCode;
  message: string;
  nodeIndex?: number;
  edgeIndex?: number;
}

/** A node as one side has it. `index` is its position in nodes_info (stable within that workflow). */
export interface NodeRef {
  index: number;
  /** The id as written (numbers are shown as text); null when the node has no usable id. */
  id: string | null;
  /** The `type` string as written (null when not a string). */
  type: string | null;
  /** `LLM "3"` — how descriptions name the node. */
  label: string;
  /** For an iteration child (`5-2`): the id of its canvas parent. */
  parentId: string | null;
}

export type NodeStatus = "added" | "removed" | "modified" | "unchanged";

/** One text diff part (jsdiff output reduced to data). */
export interface TextDiffPart {
  op: "equal" | "insert" | "delete";
  text: string;
}

export interface TextDiff {
  /** lines: diffLines (multi-line text); words: diffWordsWithSpace (one-line text). */
  granularity: "lines" | "words";
  parts: TextDiffPart[];
  /** Lines (or words) inserted and deleted. */
  inserted: number;
  deleted: number;
}

/** One changed leaf (or added/removed subtree) of a node's param. */
export interface FieldChange {
  op: "added" | "removed" | "changed";
  /** Path inside `param` (array indices of the later workflow when the element exists there). */
  path: ParamPath;
  /** The path in the earlier workflow when it differs (an element that moved within its list). */
  beforePath?: ParamPath;
  before?: JsonValue;
  after?: JsonValue;
  /** For changed long texts (prompts, code, templates): a line or word diff. */
  text?: TextDiff;
}

/** A `[var, id]` selector or an inline `{{#id.var#}}` reference. */
export interface ReferenceInfo {
  via: "selector" | "inline";
  /** The param path of the selector, or of the text field holding the inline reference. */
  path: ParamPath;
  variable: string;
  /** The id referenced, as written (null when the token cannot be read as an id). */
  nodeId: string | null;
  /** Label of the node referenced, when it exists on its side. */
  nodeLabel: string | null;
}

export interface ReferenceChange {
  op: "added" | "removed" | "retargeted";
  /** Where the reference sits: a param key, or key/name for named entries (`outputs/answer`). */
  slot: string;
  before?: ReferenceInfo;
  after?: ReferenceInfo;
}

/** If-else cases / classifier classes: how the branch ports of a matched branching node correspond. */
export interface BranchCorrespondence {
  /** Port numbers (ELSE = number of cases); null when the branch does not exist on that side. */
  beforePort: number | null;
  afterPort: number | null;
  beforeLabel: string | null;
  afterLabel: string | null;
}

export interface NodeMove {
  /** Canvas parent ids (null = top level). */
  fromParent: string | null;
  toParent: string | null;
}

export interface NodeDiff {
  status: NodeStatus;
  before: NodeRef | null;
  after: NodeRef | null;
  /** Both sides exist and their ids differ (renumbered or renamed). */
  renamed: boolean;
  /** Match score in [0, 1] for matched pairs; null for added / removed nodes. */
  similarity: number | null;
  /** Matched with the same id (rather than by content after a renumbering). */
  matchedById: boolean;
  typeChange?: { before: string | null; after: string | null };
  /** Param changes, with ids in references mapped through the matching (a pure renumbering changes nothing). */
  fields: FieldChange[];
  references: ReferenceChange[];
  move?: NodeMove;
  /** For matched if-else / question-classifier nodes. */
  branches?: BranchCorrespondence[];
}

export interface EdgeRef {
  /** Position in `edges`. */
  index: number;
  source: string | null;
  target: string | null;
  port: JsonValue | null;
  /** IF / ELIF 1 / ELSE / the class name, for branching sources; null otherwise. */
  portLabel: string | null;
  sourceLabel: string;
  targetLabel: string;
}

export interface EdgeDiff {
  status: "added" | "removed" | "unchanged";
  before: EdgeRef | null;
  after: EdgeRef | null;
}

/** A set-valued comparison (node types, variable names). */
export interface SetChange<T> {
  added: T[];
  removed: T[];
  kept: T[];
}

export interface StartVariable {
  name: string;
  type: JsonValue;
}

export interface IoDiff {
  /** The first start node's variables, compared by name. */
  inputs: SetChange<string> & { retyped: { name: string; before: JsonValue; after: JsonValue }[] };
  /** Output names over all End nodes. */
  outputs: SetChange<string>;
}

export interface TaskDiff {
  inputs: SetChange<string>;
  outputs: SetChange<string>;
  keyNodes: SetChange<string>;
}

export const CHANGE_KINDS = [
  "task-input-added",
  "task-input-removed",
  "task-output-added",
  "task-output-removed",
  "task-key-node-added",
  "task-key-node-removed",
  "selection-added",
  "selection-removed",
  "input-added",
  "input-removed",
  "input-retyped",
  "output-added",
  "output-removed",
  "node-added",
  "node-removed",
  "node-modified",
  "node-renamed",
  "node-moved",
  "reference-added",
  "reference-removed",
  "reference-retargeted",
  "edge-added",
  "edge-removed",
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** One entry of the ordered change list (previous / next navigation). */
export interface DiffChange {
  /** Stable across recomputations of the same pair: built from the kind and the ids involved. */
  id: string;
  kind: ChangeKind;
  /** One line for a human. */
  description: string;
  /** The node(s) concerned (node-* and reference-* kinds). */
  node?: { before: NodeRef | null; after: NodeRef | null };
  /** The edge concerned (edge-* kinds). */
  edge?: { before: EdgeRef | null; after: EdgeRef | null };
  /** Node-modified: the param changes; reference-*: the reference change. */
  fields?: FieldChange[];
  reference?: ReferenceChange;
  /** Task / selection / input / output kinds: the name concerned. */
  name?: string;
}

export interface DiffSummary {
  /** No change of any kind (renumbering included). */
  identical: boolean;
  changeCount: number;
  byKind: Record<ChangeKind, number>;
  nodes: { added: number; removed: number; modified: number; unchanged: number; renamed: number; moved: number };
  edges: { added: number; removed: number; unchanged: number };
}

export interface WorkflowDiff {
  /** Every node of both sides once: later-workflow order, removed nodes placed after their earlier predecessor. */
  nodes: NodeDiff[];
  edges: EdgeDiff[];
  /** Matched nodes whose id changed, old id -> new id. */
  renames: { before: string | null; after: string | null }[];
  /** Declared node types (null when either side gave no node_selection). */
  selection: SetChange<NodeTypeId> | null;
  io: IoDiff;
  /** The task's requirements (null unless both sides gave a turn). */
  task: TaskDiff | null;
  changes: DiffChange[];
  summary: DiffSummary;
  issues: { before: DiffIssue[]; after: DiffIssue[] };
}
