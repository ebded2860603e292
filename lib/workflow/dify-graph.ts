// The Dify graph the official converter emits (nodes, edges, positions) and the id sources it draws ids from.
// Shared by the converter, the node types' Dify conversions and the DSL wrapper; shapes follow the official output.

export interface IdSource {
  /** A node id: "1" followed by 12 digits in the official converter. */
  nodeId(): string;
  /** A question-classifier class id (same format). */
  classId(): string;
  /** An if-else case or condition id (uuid4 in the official converter). */
  uuid(): string;
}

export interface Position {
  x: number;
  y: number;
}

export type DifyData = Record<string, unknown>;

export interface DifyNode {
  data: DifyData;
  height: 52;
  id: string;
  position: Position;
  positionAbsolute: Position;
  selected?: false;
  sourcePosition: "right";
  targetPosition: "left";
  type: "custom" | "custom-iteration-start";
  width: 242;
  zIndex?: 1002;
  parentId?: string;
  draggable?: false;
  selectable?: false;
}

export interface DifyEdge {
  data: { isInIteration: boolean; sourceType: string; targetType: string; iteration_id?: string };
  id: string;
  source: string;
  sourceHandle: string;
  target: string;
  targetHandle: "target";
  type: "custom";
  zIndex: 0 | 1002;
}

export interface DifyGraph {
  nodes: DifyNode[];
  edges: DifyEdge[];
}

// -- id sources --------------------------------------------------------------------------------------------------
// Method shorthand, not named arrows: tsx (esbuild keepNames) wraps every named arrow in a __name() call that
// redefines its `name` on each creation, and a sequential source is created per conversion.

export function sequentialIdSource(): IdSource {
  let nodes = 0;
  let classes = 0;
  let uuids = 0;
  return {
    nodeId() {
      return `1${String(++nodes).padStart(12, "0")}`;
    },
    classId() {
      return `15${String(++classes).padStart(11, "0")}`;
    },
    uuid() {
      return `00000000-0000-4000-8000-${(++uuids).toString(16).padStart(12, "0")}`;
    },
  };
}

function randomDigits(count: number): string {
  const bytes = new Uint8Array(count);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => String(b % 10)).join("");
}

export function randomIdSource(): IdSource {
  return {
    nodeId() {
      return `1${randomDigits(12)}`;
    },
    classId() {
      return `1${randomDigits(12)}`;
    },
    uuid() {
      return globalThis.crypto.randomUUID();
    },
  };
}
