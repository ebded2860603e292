"use client";
// Details of the selected node: what it is, its params, the variables it reads and exposes (the official
// converter's inferred type beside the platform's real one) and its diagnostics.
import { useId } from "react";
import type { LaidOutNode, LaidOutView } from "@/lib/viewer/layout";
import type { ViewDiagnostic } from "@/lib/viewer/model";
import { formatPath } from "@/lib/workflow/analysis/model";
import { DiagnosticList } from "./diagnostic-list";

export interface NodeInspectorProps {
  view: LaidOutView;
  node: LaidOutNode;
  diagnostics: readonly ViewDiagnostic[];
  onSelect: (key: string | null) => void;
}

function TypePair({ official, real }: { official: string; real: string }) {
  const differs = official !== real;
  return (
    <>
      <td className={`whitespace-nowrap px-2 py-1 font-mono text-xs ${official === "error" ? "text-red-700 dark:text-red-400" : ""}`}>{official}</td>
      <td className={`whitespace-nowrap px-2 py-1 font-mono text-xs ${differs ? "text-amber-700 dark:text-amber-400" : ""}`}>{real}</td>
    </>
  );
}

const th = "px-2 py-1 text-left text-[11px] font-semibold uppercase tracking-wide text-slate-500";

export function NodeInspector({ view, node, diagnostics, onSelect }: NodeInspectorProps) {
  const titleId = useId();
  const byKey = new Map(view.nodes.map((n) => [n.key, n]));
  const parent = node.parentKey !== null ? byKey.get(node.parentKey) : undefined;
  const own = diagnostics.filter((d) => node.diagnostics.includes(d.id));
  const referencedBy = view.edges.filter((edge) => edge.source === node.key && edge.kind === "reference").map((edge) => byKey.get(edge.target)).filter((n): n is LaidOutNode => n !== undefined);
  const nodeButton = (key: string | null, text: string) => {
    const target = key !== null ? byKey.get(key) : undefined;
    if (!target) return <span className="font-mono text-xs">{text}</span>;
    return (
      <button type="button" className="font-mono text-xs text-brand-600 underline hover:text-brand-700 dark:text-brand-500" onClick={() => onSelect(target.key)}>
        {text}
      </button>
    );
  };
  return (
    <section aria-labelledby={titleId} className="space-y-4" data-testid="node-inspector">
      <div className="flex items-start justify-between gap-2">
        <div>
          <h3 id={titleId} className="text-base font-semibold">
            {node.title} <span className="font-mono text-sm text-slate-500">{node.workflowId ?? `nodes_info[${node.index}]`}</span>
          </h3>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            {node.family === "missing" ? node.note : <>type <code>{node.type}</code>{node.index !== null ? <> · nodes_info[{node.index}]</> : null}</>}
            {parent ? <> · inside iteration {nodeButton(parent.key, parent.workflowId ?? parent.key)}</> : null}
          </p>
        </div>
        <button type="button" onClick={() => onSelect(null)} className="rounded px-2 py-0.5 text-sm text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800" aria-label="Close node details">
          ✕
        </button>
      </div>

      <div>
        <h4 className="mb-1 text-sm font-semibold">Problems on this node</h4>
        <DiagnosticList diagnostics={own} emptyText="None." label="Problems on this node" />
      </div>

      {node.family === "missing" && referencedBy.length > 0 ? (
        <div>
          <h4 className="mb-1 text-sm font-semibold">Referenced by</h4>
          <p className="flex flex-wrap gap-2">{referencedBy.map((reader) => <span key={reader.key}>{nodeButton(reader.key, reader.workflowId ?? reader.key)}</span>)}</p>
        </div>
      ) : null}

      {node.references.length > 0 ? (
        <div className="overflow-x-auto">
          <h4 className="mb-1 text-sm font-semibold">Reads</h4>
          <table className="min-w-full text-sm">
            <caption className="sr-only">Variables this node reads</caption>
            <thead>
              <tr>
                <th scope="col" className={th}>Where</th>
                <th scope="col" className={th}>Variable</th>
                <th scope="col" className={th}>From</th>
                <th scope="col" className={th} title="The type the official converter infers">Official</th>
                <th scope="col" className={th} title="The type the platform really provides">Real</th>
              </tr>
            </thead>
            <tbody>
              {node.references.map((ref, i) => (
                <tr key={i} className="border-t border-slate-100 dark:border-slate-800">
                  {/* Long paths and names wrap, so the type columns stay inside the inspector. */}
                  <td className="px-2 py-1 font-mono text-xs [overflow-wrap:anywhere]">{formatPath(ref.path)}{ref.via === "inline" ? " (inline)" : ""}</td>
                  <td className="px-2 py-1 font-mono text-xs [overflow-wrap:anywhere]">{ref.variable}</td>
                  <td className="px-2 py-1">{nodeButton(ref.targetKey, ref.nodeId ?? "(not a literal id)")}</td>
                  <TypePair official={ref.official} real={ref.real} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      {node.exposes.length > 0 ? (
        <div className="overflow-x-auto">
          <h4 className="mb-1 text-sm font-semibold">Exposes</h4>
          <table className="min-w-full text-sm">
            <caption className="sr-only">Variables this node exposes</caption>
            <thead>
              <tr>
                <th scope="col" className={th}>Variable</th>
                <th scope="col" className={th}>Official</th>
                <th scope="col" className={th}>Real</th>
              </tr>
            </thead>
            <tbody>
              {node.exposes.map((variable, i) => (
                <tr key={i} className="border-t border-slate-100 align-top dark:border-slate-800">
                  <td className="px-2 py-1 font-mono text-xs [overflow-wrap:anywhere]">
                    {variable.name}
                    {variable.quirk ? <span className="mt-0.5 block font-sans text-[11px] text-amber-700 dark:text-amber-400">{variable.quirk}</span> : null}
                  </td>
                  <TypePair official={variable.official} real={variable.real} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      {node.param !== null ? (
        <div>
          <h4 className="mb-1 text-sm font-semibold">Parameters</h4>
          <pre className="max-h-72 overflow-auto rounded-md bg-slate-50 p-2 font-mono text-xs whitespace-pre-wrap break-words dark:bg-slate-800" data-testid="node-params">
            {JSON.stringify(node.param, null, 2)}
          </pre>
        </div>
      ) : null}
    </section>
  );
}
