"use client";
// One run's task × round grid: a cell per turn, coloured by state and always labelled in words, linking to the
// stored response. Rounds a task does not have are blank.
import Link from "next/link";
import type { ReactNode } from "react";
import { tableStyles } from "@/components/ui/styles";
import type { ProgressCell as GridCellView, ProgressCellState as GridCellState } from "@/lib/server/evaluations/get-evaluation-progress";

interface GridRowView {
  task: string;
  cells: GridCellView[];
}

const STATE_CLASS: Record<GridCellState, string> = {
  pending: "border border-dashed border-slate-300 text-slate-500 dark:border-slate-600 dark:text-slate-400",
  running: "bg-sky-100 text-sky-900 ring-1 ring-sky-500 dark:bg-sky-950 dark:text-sky-200",
  passed: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  failed: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
  error: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
};

/** The short text a cell shows (the colour is never the only signal). */
export function cellText(cell: GridCellView): string {
  switch (cell.state) {
    case "passed":
      return "✓ pass";
    case "failed":
      return cell.failStep ? `✗ ${cell.failStep.replace(/^step_/, "")}` : "✗ fail";
    case "running":
      return "running";
    case "error":
      return "error";
    default:
      return "pending";
  }
}

function cellTitle(cell: GridCellView, task: string): string {
  const where = `${task} round ${cell.round}`;
  if (cell.state === "failed") return `${where}: failed${cell.failStep ? ` at ${cell.failStep}` : ""}`;
  if (cell.state === "error") return `${where}: error${cell.error ? ` — ${cell.error}` : ""}`;
  return `${where}: ${cell.state}`;
}

function Cell({ cell, task }: { cell: GridCellView; task: string }) {
  const className = `inline-block min-w-16 rounded px-1.5 py-0.5 text-center text-xs font-medium ${STATE_CLASS[cell.state]}`;
  const title = cellTitle(cell, task);
  const content: ReactNode = (
    <>
      <span aria-hidden="true">{cellText(cell)}</span>
      <span className="sr-only">{title}</span>
    </>
  );
  if (cell.responseId) {
    return (
      <Link prefetch={false} href={`/responses/${encodeURIComponent(cell.responseId)}`} className={`${className} hover:underline`} title={title} data-state={cell.state}>
        {content}
      </Link>
    );
  }
  return (
    <span className={className} title={title} data-state={cell.state}>
      {content}
    </span>
  );
}

export function EvaluationGrid({ rows, label }: { rows: readonly GridRowView[]; label: string }) {
  const rounds = Math.max(0, ...rows.flatMap((row) => row.cells.map((cell) => cell.round)));
  if (rows.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">No task in this run yet.</p>;
  return (
    <div className={`${tableStyles.wrapper} max-h-[32rem] overflow-y-auto`}>
      <table className={tableStyles.table} data-testid="evaluation-grid">
        <caption className="sr-only">{label}: one row per task, one column per round; each stored turn links to its response.</caption>
        <thead className="sticky top-0 z-10 bg-white dark:bg-slate-900">
          <tr>
            <th scope="col" className={tableStyles.th}>
              Task
            </th>
            {Array.from({ length: rounds }, (_, index) => (
              <th key={index} scope="col" className={`${tableStyles.th} text-center`}>
                Round {index + 1}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((row) => (
            <tr key={row.task} data-testid="grid-row">
              <th scope="row" className={`${tableStyles.td} text-left font-normal`}>
                {row.task}
              </th>
              {Array.from({ length: rounds }, (_, index) => {
                const cell = row.cells.find((candidate) => candidate.round === index + 1);
                return (
                  <td key={index} className="px-2 py-1 text-center">
                    {cell ? <Cell cell={cell} task={row.task} /> : <span className="sr-only">no round {index + 1}</span>}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The legend: every state with its colour and word. */
export function GridLegend() {
  const states: { state: GridCellState; text: string }[] = [
    { state: "pending", text: "not generated yet" },
    { state: "running", text: "being generated" },
    { state: "passed", text: "passes steps 1_1–1_4" },
    { state: "failed", text: "fails at the step shown" },
    { state: "error", text: "the call failed (retried per the job policy)" },
  ];
  return (
    <ul className="flex flex-wrap gap-3 text-xs text-slate-600 dark:text-slate-400" aria-label="Legend">
      {states.map(({ state, text }) => (
        <li key={state} className="flex items-center gap-1">
          {/* The legend's swatch stays still: only a cell being generated pulses. */}
          <span className={`inline-block rounded px-1.5 py-0.5 font-medium ${STATE_CLASS[state]}`}>{cellText({ round: 1, state, responseId: null, failStep: state === "failed" ? "step_1_2" : null, error: null })}</span>
          {text}
        </li>
      ))}
    </ul>
  );
}
