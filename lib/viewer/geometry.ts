// Node box geometry shared by the layout and the canvas: how big a node is and where each output handle sits.
// One source of truth, so handles drawn by the canvas line up with the rows the layout made room for.

export const NODE_WIDTH = 248;
export const HEADER_HEIGHT = 40;
export const LINE_HEIGHT = 18;
export const PORT_ROW_HEIGHT = 22;
export const BODY_PADDING = 10;
export const MIN_NODE_HEIGHT = 56;
/** A placeholder for a node that a reference or an edge names but that does not exist. */
export const PLACEHOLDER_SIZE = { width: 168, height: 56 } as const;
/** Room inside an iteration container around its children (the header shows the iteration's own summary). */
export const CONTAINER_PADDING = { left: 24, right: 24, top: 24, bottom: 24 } as const;

export interface BoxContent {
  /** Summary lines shown under the title. */
  lines: number;
  /** Output ports drawn as labelled rows (branching nodes); 0 for a node with one plain output. */
  portRows: number;
  placeholder?: boolean;
}

export interface Size {
  width: number;
  height: number;
}

export function nodeBoxSize(content: BoxContent): Size {
  if (content.placeholder) return { ...PLACEHOLDER_SIZE };
  const body = content.lines * LINE_HEIGHT + content.portRows * PORT_ROW_HEIGHT;
  return { width: NODE_WIDTH, height: Math.max(MIN_NODE_HEIGHT, HEADER_HEIGHT + body + (body > 0 ? BODY_PADDING : 0)) };
}

/** Vertical centre of port row `row` (0-based) inside a node box with `lines` summary lines. */
export function portRowCenter(lines: number, row: number): number {
  return HEADER_HEIGHT + lines * LINE_HEIGHT + row * PORT_ROW_HEIGHT + PORT_ROW_HEIGHT / 2 + BODY_PADDING / 2;
}

/** Height of a container's header band: the iteration's own title and summary lines. */
export function containerHeaderHeight(lines: number): number {
  return HEADER_HEIGHT + lines * LINE_HEIGHT + (lines > 0 ? BODY_PADDING : 0);
}
