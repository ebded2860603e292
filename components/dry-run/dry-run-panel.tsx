// The response page's "Dry run" tab: the stored dry run of the turn's three test cases (a local execution with the
// mock model, predicted, never a Dify resolve rate), one case's trace drawn on the workflow graph — each node's
// status as a mark, the failing node in red — and every node's status, inputs and outputs in a table, with the files
// a tool returned (downloadable where they can be written again) and a chart tool's chart as an image.
import type { TraceStep } from "@/lib/dry-run/engine";
import { isDownloadable, type TracedFile } from "@/lib/dry-run/types";
import { formatBytes } from "@/lib/format";
import type { StoredDryRunCase } from "@/lib/server/data/dry-run";
import type { LaidOutView } from "@/lib/viewer/layout";
import { tableStyles } from "@/components/ui/styles";
import type { NodeDecoration } from "@/components/viewer/flow-types";
import { WorkflowViewer } from "@/components/viewer/workflow-viewer";
import { StartDryRun } from "./start-dry-run";

const STATUS_MARKS: Readonly<Record<TraceStep["status"], NodeDecoration>> = {
  succeeded: { label: "ran", tone: "good" },
  failed: { label: "failed", tone: "bad" },
  skipped: { label: "skipped", tone: "neutral" },
  uncertain: { label: "uncertain", tone: "warn" },
};

/** Marks keyed by canvas node: a node that failed in any iteration round is marked failed. */
function decorationsOf(view: LaidOutView, trace: readonly TraceStep[]): Record<string, NodeDecoration> {
  const byWorkflowId = new Map<string, TraceStep["status"]>();
  for (const step of trace) {
    if (step.workflowId === undefined || byWorkflowId.get(step.workflowId) === "failed") continue;
    byWorkflowId.set(step.workflowId, step.status);
  }
  const marks: Record<string, NodeDecoration> = {};
  for (const node of view.nodes) {
    const status = node.workflowId === null ? undefined : byWorkflowId.get(node.workflowId);
    if (status) marks[node.key] = STATUS_MARKS[status];
  }
  return marks;
}

const entries = (values: Record<string, string> | undefined) => Object.entries(values ?? {});

function ValueList({ values }: { values: Record<string, string> | undefined }) {
  const list = entries(values);
  if (list.length === 0) return <span className="text-slate-500">—</span>;
  return (
    <ul className="space-y-0.5">
      {list.map(([name, preview]) => (
        <li key={name} className="max-w-[28rem] whitespace-pre-wrap break-words font-mono text-xs">
          <span className="text-slate-600 dark:text-slate-400">{name}</span> {preview}
        </li>
      ))}
    </ul>
  );
}

const CONTENT_NOTES: Readonly<Record<TracedFile["content"], string>> = {
  written: "written here from the node's Markdown",
  placeholder: "placeholder image, not a rendering",
  none: "type only, no bytes",
};

function StepFiles({ files, href }: { files: TracedFile[]; href: (index: number) => string }) {
  return (
    <ul className="mt-1 space-y-0.5 text-xs" aria-label="Files returned">
      {files.map((file, index) => (
        <li key={index} data-testid="dry-run-file" data-content={file.content}>
          {isDownloadable(file) ? (
            <a href={href(index)} download={file.name} className="font-mono underline">{file.name}</a>
          ) : (
            <span className="font-mono">{file.name}</span>
          )}{" "}
          <span className="text-slate-600 dark:text-slate-400">({file.extension}, {file.kind}, {formatBytes(file.size)}; {CONTENT_NOTES[file.content]})</span>
        </li>
      ))}
    </ul>
  );
}

/** The SVG is shown as an image from a data URL, never as markup: its title and labels come from model text. */
function ChartImage({ chart }: { chart: NonNullable<TraceStep["chart"]> }) {
  return (
    <figure className="mt-2 max-w-[28rem]" data-testid="dry-run-chart">
      {/* eslint-disable-next-line @next/next/no-img-element -- a data URL, which next/image does not optimise */}
      <img src={`data:image/svg+xml;base64,${Buffer.from(chart.svg, "utf8").toString("base64")}`} alt={chart.alt} width={640} height={360} className="h-auto w-full rounded border border-slate-200 bg-white dark:border-slate-700" />
      <figcaption className="text-xs text-slate-600 dark:text-slate-400">Our preview, drawn with ECharts from the tool&apos;s text; Dify&apos;s tool returns the text only.</figcaption>
    </figure>
  );
}

function TraceTable({ dryRun, responseId }: { dryRun: StoredDryRunCase; responseId: string }) {
  return (
    <div className={tableStyles.wrapper}>
      <table className={tableStyles.table} aria-label={`Trace of test case ${dryRun.position}`}>
        <thead>
          <tr>
            <th scope="col" className={tableStyles.th}>Node</th>
            <th scope="col" className={tableStyles.th}>Status</th>
            <th scope="col" className={tableStyles.th}>Inputs</th>
            <th scope="col" className={tableStyles.th}>Outputs</th>
            <th scope="col" className={tableStyles.th}>Reason</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
          {dryRun.trace.map((step, index) => (
            <tr key={index} data-testid="dry-run-step" data-status={step.status} className={step.status === "failed" ? "bg-red-50 dark:bg-red-950/40" : undefined}>
              <td className={tableStyles.td}>
                {step.title || step.type} <span className="text-xs text-slate-600 dark:text-slate-400">({step.type}{step.workflowId ? ` · id ${step.workflowId}` : ""}{step.iteration === undefined ? "" : ` · round ${step.iteration + 1}`})</span>
              </td>
              <td className={tableStyles.td}>
                {step.status}
                {step.mocked ? <span className="text-xs text-slate-600 dark:text-slate-400"> (stand-in values)</span> : null}
              </td>
              <td className={tableStyles.td}><ValueList values={step.inputs} /></td>
              <td className={tableStyles.td}>
                <ValueList values={step.outputs} />
                {step.files && step.files.length > 0 ? <StepFiles files={step.files} href={(file) => `/responses/${encodeURIComponent(responseId)}/dry-run-file?case=${dryRun.position}&step=${index}&file=${file}`} /> : null}
                {step.chart ? <ChartImage chart={step.chart} /> : null}
              </td>
              <td className="max-w-[24rem] whitespace-pre-wrap break-words px-3 py-2 align-top">{step.reason ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function DryRunPanel({ cases, passed, responseId, runId, canStart, view }: { cases: StoredDryRunCase[]; passed: boolean; responseId: string; runId: string; canStart: boolean; view: LaidOutView | null }) {
  const label = (
    <p className="rounded-md border border-sky-300 bg-sky-50 p-3 text-sm dark:border-sky-800 dark:bg-sky-950/40" data-testid="dry-run-label">
      <strong>Local execution (predicted)</strong>: the workflow run here with a mock model and sandboxed code, following Dify&apos;s rules. It
      predicts whether each test case would reach the judge; it is not a Dify resolve rate.
    </p>
  );
  if (cases.length === 0) {
    return (
      <div className="space-y-3">
        {label}
        <p className="text-sm">
          {passed ? "This turn has not been dry-run yet." : "Only turns that passed the pass stage are dry-run, as only they reach Dify's resolve stage."}
        </p>
        {passed && canStart ? <StartDryRun runId={runId} /> : null}
      </div>
    );
  }
  // The graph shows the first case that failed (else the first case): the one a reader wants to see.
  const drawn = cases.find((entry) => entry.outcome === "failed") ?? (cases[0] as StoredDryRunCase);
  return (
    <div className="space-y-4" data-testid="dry-run-panel">
      {label}
      <div className={tableStyles.wrapper}>
        <table className={tableStyles.table} aria-label="Dry-run test cases">
          <thead>
            <tr>
              <th scope="col" className={tableStyles.th}>Test case</th>
              <th scope="col" className={tableStyles.th}>Outcome</th>
              <th scope="col" className={tableStyles.th}>Failing node</th>
              <th scope="col" className={tableStyles.th}>Reason</th>
              <th scope="col" className={tableStyles.th}>File check</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
            {cases.map((entry) => (
              <tr key={entry.position} data-testid="dry-run-case" data-outcome={entry.outcome}>
                <td className={tableStyles.td}>{entry.position}</td>
                <td className={tableStyles.td}>{entry.outcome}</td>
                <td className={tableStyles.td}>{entry.failedNode ?? "—"}</td>
                <td className="max-w-[32rem] whitespace-pre-wrap break-words px-3 py-2 align-top">{entry.reason ?? ""}</td>
                <td className={tableStyles.td}>{entry.fileCheck}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3 className="text-sm font-semibold">Test case {drawn.position} on the graph</h3>
      {view ? <WorkflowViewer view={view} syncUrl={false} label={`Dry-run trace of test case ${drawn.position}`} decorations={decorationsOf(view, drawn.trace)} /> : null}
      <TraceTable dryRun={drawn} responseId={responseId} />
      {cases
        .filter((entry) => entry !== drawn)
        .map((entry) => (
          <details key={entry.position} className="space-y-2">
            <summary className="cursor-pointer text-sm font-semibold">Trace of test case {entry.position}</summary>
            <TraceTable dryRun={entry} responseId={responseId} />
          </details>
        ))}
      <p className="text-xs text-slate-500">Executed {cases[0]?.executedAt.slice(0, 19).replace("T", " ")} UTC with the {drawn.model} model.</p>
      {canStart ? <StartDryRun runId={runId} /> : null}
    </div>
  );
}
