"use client";
// The canvas's node components, one memoised component per node-type family, and the nodeTypes map React Flow
// reads (module scope, so React Flow never sees a new object). Everything from a response renders as text.
import { Handle, Position, useStore, type NodeProps, type NodeTypes, type ReactFlowState } from "@xyflow/react";
import { memo, type ReactNode } from "react";
import { HEADER_HEIGHT, LINE_HEIGHT, PORT_ROW_HEIGHT, portRowCenter } from "@/lib/viewer/geometry";
import { handleSpecs } from "@/lib/viewer/handles";
import { portRows } from "@/lib/viewer/model";
import type { ViewFamily } from "@/lib/viewer/model";
import type {
  ContainerFlowNode,
  FlowNodeData,
  IoFlowNode,
  LogicFlowNode,
  MissingFlowNode,
  ModelFlowNode,
  ToolFlowNode,
  TransformFlowNode,
  UnknownFlowNode,
} from "./flow-types";
import { CATEGORY_COLORS, CATEGORY_LABELS, CATEGORY_LETTERS, FAMILY_ACCENTS, SEVERITY_LABELS, SEVERITY_RING } from "./palette";

const ICON_PATHS: Readonly<Record<ViewFamily, string>> = {
  io: "M3 8h7M7 5l3 3-3 3M12 3v10",
  model: "M8 2l1.5 4.5L14 8l-4.5 1.5L8 14l-1.5-4.5L2 8l4.5-1.5z",
  logic: "M3 3v4a3 3 0 003 3h7M10 7l3 3-3 3M3 13v-3",
  transform: "M5 3L2 8l3 5M11 3l3 5-3 5M9 3L7 13",
  container: "M13 8a5 5 0 11-2-4M13 2v3h-3",
  tool: "M10 2a3 3 0 00-2.8 4.1L2.5 10.8a1.4 1.4 0 002 2l4.7-4.7A3 3 0 0013 5l-2 1-1-1 1-2z",
  unknown: "M6 6a2 2 0 114 0c0 1.5-2 1.5-2 3M8 12v.5",
  missing: "M6 10l4-4M4.5 7.5L3 9a2.1 2.1 0 003 3l1.5-1.5M11.5 8.5L13 7a2.1 2.1 0 00-3-3L8.5 5.5",
};

function FamilyIcon({ family }: { family: ViewFamily }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="h-4 w-4 shrink-0" fill="none" stroke={FAMILY_ACCENTS[family]} strokeWidth={1.6} strokeLinecap="round" strokeLinejoin="round">
      <path d={ICON_PATHS[family]} />
    </svg>
  );
}

const DECORATION_TONES: Readonly<Record<NonNullable<FlowNodeData["decoration"]>["tone"], string>> = {
  neutral: "bg-slate-600",
  good: "bg-emerald-700",
  bad: "bg-red-600",
  warn: "bg-amber-700",
  info: "bg-sky-700",
};

/** Category badges (letter and count) above the node's top-right corner, and another feature's decoration. */
function Badges({ data }: { data: FlowNodeData }) {
  const { overlay, decoration } = data;
  return (
    <>
      {overlay ? (
        <span className="pointer-events-none absolute -top-3 right-2 flex gap-1" data-testid="node-badges">
          {overlay.categories.map((entry) => (
            <span
              key={entry.category}
              title={`${entry.count} ${CATEGORY_LABELS[entry.category].toLowerCase()} problem${entry.count === 1 ? "" : "s"} (worst: ${SEVERITY_LABELS[entry.severity].toLowerCase()})`}
              className="rounded px-1 text-[10px] font-bold leading-4 text-white shadow"
              style={{ background: CATEGORY_COLORS[entry.category] }}
            >
              {CATEGORY_LETTERS[entry.category]}
              {entry.count > 1 ? entry.count : ""}
            </span>
          ))}
        </span>
      ) : null}
      {decoration ? (
        <span className={`pointer-events-none absolute -top-3 left-2 rounded px-1 text-[10px] font-semibold leading-4 text-white shadow ${DECORATION_TONES[decoration.tone]}`} data-testid="node-decoration">
          {decoration.label}
        </span>
      ) : null}
    </>
  );
}

const SIDES = { left: Position.Left, right: Position.Right, top: Position.Top, bottom: Position.Bottom } as const;

/** Every handle of the node, placed from the same specs React Flow gets up front (lib/viewer/handles). */
function Handles({ data }: { data: FlowNodeData }) {
  return (
    <>
      {handleSpecs(data.node).map((spec) => (
        <Handle
          key={spec.id}
          id={spec.id}
          type={spec.type}
          position={SIDES[spec.side]}
          isConnectable={false}
          className={spec.id.startsWith("ref-") ? "workflow-ref-handle" : undefined}
          style={spec.side === "left" || spec.side === "right" ? { top: spec.offset } : { left: spec.offset }}
        />
      ))}
    </>
  );
}

function boxClasses(data: FlowNodeData, extra: string): string {
  const ring = data.overlay ? SEVERITY_RING[data.overlay.severity] : "";
  const selected = data.selected ? "outline outline-2 outline-offset-4 outline-brand-500" : "";
  return `relative h-full w-full rounded-lg text-left text-xs ${ring} ${selected} ${extra}`;
}

function dataAttributes(data: FlowNodeData) {
  return {
    "data-testid": "workflow-node",
    "data-node-key": data.node.key,
    "data-workflow-id": data.node.workflowId ?? "",
    "data-parent-key": data.node.parentKey ?? "",
    "data-node-type": data.node.type,
    "data-severity": data.overlay?.severity ?? "none",
    "data-categories": data.overlay ? data.overlay.categories.map((c) => c.category).join(" ") : "",
    "data-selected": data.selected ? "true" : "false",
    "data-decoration": data.decoration?.label ?? "",
    "data-decoration-tone": data.decoration?.tone ?? "",
    "data-dimmed": data.dimmed ? "true" : "false",
  };
}

/** Below this zoom the key-param text is unreadable anyway: nodes show only their title (less to paint). */
export const DETAIL_ZOOM = 0.5;
const zoomedOut = (state: ReactFlowState): boolean => state.transform[2] < DETAIL_ZOOM;

function Header({ data, children }: { data: FlowNodeData; children?: ReactNode }) {
  const { node } = data;
  return (
    <div className="flex items-center gap-2 px-2.5" style={{ height: HEADER_HEIGHT }}>
      <FamilyIcon family={node.family} />
      <span className="truncate text-[13px] font-semibold text-slate-900 dark:text-slate-100" title={node.type} data-testid="node-title">
        {node.title}
      </span>
      {children}
      <span className="ml-auto shrink-0 rounded bg-slate-100 px-1 font-mono text-[10px] text-slate-600 dark:bg-slate-800 dark:text-slate-300" title="Node id">
        {node.workflowId ?? `#${node.index ?? "?"}`}
      </span>
    </div>
  );
}

function Summary({ data }: { data: FlowNodeData }) {
  const lines = data.node.summary;
  const compact = useStore(zoomedOut);
  if (lines.length === 0 || compact) return null;
  return (
    <dl className="px-2.5">
      {lines.map((line, i) => (
        <div key={i} className="flex gap-1.5 overflow-hidden" style={{ height: LINE_HEIGHT, lineHeight: `${LINE_HEIGHT}px` }}>
          <dt className="shrink-0 text-slate-500 dark:text-slate-400">{line.label}</dt>
          <dd className={`truncate text-slate-800 dark:text-slate-200 ${line.mono ? "font-mono text-[11px]" : ""}`} title={line.value}>
            {line.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Branch rows (if-else cases and ELSE, classifier classes, invalid ports) each with its own source handle. */
function PortRows({ data }: { data: FlowNodeData }) {
  const { node } = data;
  const rows = portRows(node);
  const compact = useStore(zoomedOut);
  if (compact) return null;
  return (
    <>
      {rows.map((port, i) => (
        <div
          key={port.id}
          className="absolute right-0 flex items-center justify-end gap-1.5 pr-3 pl-2.5"
          style={{ top: portRowCenter(node.summary.length, i) - PORT_ROW_HEIGHT / 2, height: PORT_ROW_HEIGHT, width: "100%" }}
          data-testid="node-port"
          data-port-kind={port.kind}
        >
          {port.detail ? (
            <span className="truncate font-mono text-[10px] text-slate-500 dark:text-slate-400" title={port.detail}>
              {port.detail}
            </span>
          ) : null}
          <span
            className={`shrink-0 rounded px-1 text-[10px] font-semibold ${port.kind === "invalid" ? "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300" : "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200"}`}
          >
            {port.label}
          </span>
        </div>
      ))}
    </>
  );
}

/** The box shared by ordinary nodes: header, key params, branch rows, handles and overlay badges. */
function NodeBox({ data, className = "" }: { data: FlowNodeData; className?: string }) {
  const { node } = data;
  return (
    <div
      {...dataAttributes(data)}
      className={boxClasses(data, `border border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900 ${className}`)}
      style={{ borderLeft: `4px solid ${FAMILY_ACCENTS[node.family]}` }}
    >
      <Header data={data} />
      <Summary data={data} />
      <PortRows data={data} />
      <Handles data={data} />
      <Badges data={data} />
    </div>
  );
}

export const IoNode = memo(function IoNode({ data }: NodeProps<IoFlowNode>) {
  return <NodeBox data={data} />;
});

export const ModelNode = memo(function ModelNode({ data }: NodeProps<ModelFlowNode>) {
  return <NodeBox data={data} />;
});

export const LogicNode = memo(function LogicNode({ data }: NodeProps<LogicFlowNode>) {
  return <NodeBox data={data} />;
});

export const TransformNode = memo(function TransformNode({ data }: NodeProps<TransformFlowNode>) {
  return <NodeBox data={data} />;
});

export const ToolNode = memo(function ToolNode({ data }: NodeProps<ToolFlowNode>) {
  return <NodeBox data={data} />;
});

/** Iterations are frames around their canvas; an iteration-start is a small box inside one. */
export const ContainerNode = memo(function ContainerNode({ data }: NodeProps<ContainerFlowNode>) {
  const { node } = data;
  if (!node.container) return <NodeBox data={data} className="bg-slate-50 dark:bg-slate-800" />;
  const header = node.headerHeight ?? HEADER_HEIGHT;
  return (
    <div
      {...dataAttributes(data)}
      data-container="true"
      className={boxClasses(data, "border-2 border-dashed border-slate-300 bg-slate-50/70 dark:border-slate-600 dark:bg-slate-800/40")}
    >
      <div className="rounded-t-lg border-b border-slate-200 bg-white/90 dark:border-slate-700 dark:bg-slate-900/90" style={{ height: header }}>
        <Header data={data}>
          <span className="text-[10px] text-slate-500 dark:text-slate-400">runs its canvas once per item</span>
        </Header>
        <Summary data={data} />
      </div>
      <Handles data={data} />
      <Badges data={data} />
    </div>
  );
});

export const UnknownNode = memo(function UnknownNode({ data }: NodeProps<UnknownFlowNode>) {
  return <NodeBox data={data} className="border-dashed" />;
});

export const MissingNode = memo(function MissingNode({ data }: NodeProps<MissingFlowNode>) {
  const { node } = data;
  return (
    <div
      {...dataAttributes(data)}
      data-missing="true"
      className={boxClasses(data, "flex flex-col justify-center border-2 border-dashed border-red-400 bg-red-50/80 px-2.5 dark:border-red-700 dark:bg-red-950/40")}
      title={node.note}
    >
      <span className="flex items-center gap-1.5 font-semibold text-red-800 dark:text-red-300">
        <FamilyIcon family="missing" />
        Missing node
      </span>
      <span className="truncate font-mono text-[11px] text-red-700 dark:text-red-400">{node.workflowId}</span>
      <Handles data={data} />
      <Badges data={data} />
    </div>
  );
});

/** React Flow's node registry: keyed by family (module scope: a stable object). */
export const nodeTypes = {
  io: IoNode,
  model: ModelNode,
  logic: LogicNode,
  transform: TransformNode,
  tool: ToolNode,
  container: ContainerNode,
  unknown: UnknownNode,
  missing: MissingNode,
} satisfies NodeTypes;
