// The selected change of a diff: what it is, the nodes or edge it concerns on each side, and for a changed node every
// changed field, long texts as a text diff. Everything from the responses is rendered as text.
import { Badge } from "@/components/ui/badge";
import type { DiffChange, EdgeRef, FieldChange, ReferenceInfo } from "@/lib/diff/types";
import { groupOf, kindLabel, kindTone } from "@/lib/diff-view/groups";
import { valueText } from "@/lib/diff-view/text";
import { formatPath } from "@/lib/workflow/analysis/model";
import { TextDiffView } from "./text-diff-view";

export interface SideLabels {
  before: string;
  after: string;
}

const FIELD_OPS: Readonly<Record<FieldChange["op"], string>> = { added: "added", removed: "removed", changed: "changed" };

function FieldEntry({ field, labels }: { field: FieldChange; labels: SideLabels }) {
  const path = field.path.length === 0 ? "param" : formatPath(field.path);
  const moved = field.beforePath && formatPath(field.beforePath) !== path ? ` (was ${formatPath(field.beforePath)})` : "";
  return (
    <li className="space-y-1" data-testid="field-change" data-path={path}>
      <p className="text-sm">
        <code className="rounded bg-slate-100 px-1 text-xs dark:bg-slate-800">{path}</code>
        {moved ? <span className="text-xs text-slate-500">{moved}</span> : null} <span className="text-xs text-slate-600 dark:text-slate-400">{FIELD_OPS[field.op]}</span>
      </p>
      {field.text ? (
        <TextDiffView diff={field.text} label={`${labels.before} → ${labels.after}`} />
      ) : (
        <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5 font-mono text-xs">
          {field.op !== "added" ? (
            <>
              <dt className="text-red-700 dark:text-red-400">−</dt>
              <dd className="break-all">{valueText(field.before, 400)}</dd>
            </>
          ) : null}
          {field.op !== "removed" ? (
            <>
              <dt className="text-emerald-700 dark:text-emerald-400">+</dt>
              <dd className="break-all">{valueText(field.after, 400)}</dd>
            </>
          ) : null}
        </dl>
      )}
    </li>
  );
}

function reads(ref: ReferenceInfo | undefined): string {
  if (!ref) return "nothing";
  const from = ref.nodeLabel ?? (ref.nodeId === null ? "an unreadable id" : `"${ref.nodeId}" (no such node)`);
  return `${JSON.stringify(ref.variable)} of ${from}${ref.via === "inline" ? " (inline)" : ""}`;
}

function edgeText(edge: EdgeRef | null): string {
  if (!edge) return "—";
  return `${edge.sourceLabel}${edge.portLabel ? ` [${edge.portLabel}]` : ""} → ${edge.targetLabel} (edges[${edge.index}])`;
}

export function ChangeDetail({ change, labels, position, count }: { change: DiffChange | null; labels: SideLabels; position: number | null; count: number }) {
  if (!change) {
    return (
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {count === 0 ? "Nothing changed." : "Choose a change in the list (or press n for the first one) to see its details here and centre it on the graphs."}
      </p>
    );
  }
  return (
    <article aria-labelledby="change-detail-title" className="space-y-3" data-testid="change-detail" data-kind={change.kind}>
      <header className="space-y-1">
        <p className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
          <Badge tone={kindTone(change.kind)}>{kindLabel(change.kind, 1)}</Badge>
          {position !== null ? (
            <span>
              change {position + 1} of {count}
            </span>
          ) : null}
        </p>
        <h3 id="change-detail-title" className="text-base font-semibold break-words">
          {change.description}
        </h3>
      </header>
      {change.node ? (
        <dl className="grid grid-cols-[8rem_1fr] gap-x-2 gap-y-1 text-sm">
          <dt className="text-slate-500">{labels.before}</dt>
          <dd>{change.node.before ? change.node.before.label : <span className="text-slate-500">not there</span>}</dd>
          <dt className="text-slate-500">{labels.after}</dt>
          <dd>{change.node.after ? change.node.after.label : <span className="text-slate-500">not there</span>}</dd>
        </dl>
      ) : null}
      {change.edge ? (
        <dl className="grid grid-cols-[8rem_1fr] gap-x-2 gap-y-1 text-sm">
          <dt className="text-slate-500">{labels.before}</dt>
          <dd className="break-words">{edgeText(change.edge.before)}</dd>
          <dt className="text-slate-500">{labels.after}</dt>
          <dd className="break-words">{edgeText(change.edge.after)}</dd>
        </dl>
      ) : null}
      {change.reference ? (
        <dl className="grid grid-cols-[8rem_1fr] gap-x-2 gap-y-1 text-sm">
          <dt className="text-slate-500">Where</dt>
          <dd>
            <code className="text-xs">{change.reference.slot}</code>
          </dd>
          <dt className="text-slate-500">{labels.before} reads</dt>
          <dd className="break-words">{reads(change.reference.before)}</dd>
          <dt className="text-slate-500">{labels.after} reads</dt>
          <dd className="break-words">{reads(change.reference.after)}</dd>
        </dl>
      ) : null}
      {change.fields && change.fields.length > 0 ? (
        <section aria-label="Changed fields" className="space-y-2">
          <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Changed fields ({change.fields.length})</h4>
          <ul className="space-y-3">
            {change.fields.map((field, i) => (
              <FieldEntry key={i} field={field} labels={labels} />
            ))}
          </ul>
        </section>
      ) : null}
      {!change.node && !change.edge && !change.reference && !(change.fields && change.fields.length > 0) ? (
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="change-detail-note">
          {groupOf(change.kind) === "task"
            ? "A change of the task itself between the two turns (what the instruction asks for), not of the workflow: nothing to point at on the graphs."
            : groupOf(change.kind) === "selection"
              ? "A change of the response's node_selection text (the node types it declares), not of the graph."
              : "No further detail for this change."}
        </p>
      ) : null}
    </article>
  );
}
