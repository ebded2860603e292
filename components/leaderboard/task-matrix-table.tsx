"use client";

import { useMemo } from "react";
import { TableDownload } from "@/components/leaderboard/table-download";
import { tableStyles } from "@/components/ui/styles";
import { modelDiffHref, turnDiffHref } from "@/lib/diff/links";
import { comparisonPair, decodeMatrix, matrixExportRows, verdictLabel, verdictText, type MatrixCell, type Tone, type WireMatrix } from "@/lib/leaderboard/turns";
import styles from "./leaderboard.module.css";

const TONE: Record<Tone, string> = { good: styles.good!, partial: styles.partial!, "pass-only": styles.passOnly!, bad: styles.bad!, missing: styles.missing! };

function Cell({ cell, round }: { cell: MatrixCell; round: number }) {
  const verdict = cell.responseId === null ? null : cell;
  const words = <span className="sr-only"> round {round}: {verdictLabel(verdict)}</span>;
  if (cell.responseId === null) {
    return (
      <span className={`${styles.chip} ${TONE.missing}`}>
        {verdictText(null)}
        {words}
      </span>
    );
  }
  return (
    <a href={`/responses/${encodeURIComponent(cell.responseId)}`} className={`${styles.chip} ${TONE[cell.tone]}`}>
      {verdictText(verdict)}
      {words}
    </a>
  );
}

/** The turns × models matrix: one row per run, one column per turn; every answered cell opens its response. */
export function TaskMatrixTable({
  wire,
  benchmark,
  judge = "",
  taskName,
  downloadName,
  inProgressRuns = [],
}: {
  wire: WireMatrix;
  benchmark: string;
  judge?: string;
  taskName: string;
  downloadName: string[];
  /** Runs still being generated: marked "in progress". */
  inProgressRuns?: readonly string[];
}) {
  const matrix = useMemo(() => decodeMatrix(wire), [wire]);
  const exportRows = useMemo(() => matrixExportRows(matrix), [matrix]);
  const query = `?${new URLSearchParams({ ...(benchmark ? { benchmark } : {}), ...(judge ? { judge } : {}) })}`.replace(/^\?$/, "");
  return (
    <>
      <div className={tableStyles.wrapper}>
        <table className={tableStyles.table} data-testid="task-matrix">
          <caption className="sr-only">
            {taskName}: turns × models. Each row is a run, each column a turn; a cell gives the pass verdict and the test cases resolved, and opens the
            response. Each row links to its turn diff and each column to a model diff of that turn.
          </caption>
          <thead>
            <tr>
              <th scope="col" className={`${tableStyles.th} sticky left-0 z-10 bg-white dark:bg-slate-900`}>
                Model
              </th>
              {matrix.columns.map((column, columnIndex) => {
                const pair = comparisonPair(matrix, columnIndex);
                return (
                <th key={column.turnId} scope="col" className={`${tableStyles.th} text-center`}>
                  Round {column.round}
                  <span className="block font-normal normal-case tracking-normal">
                    {column.passed} of {column.responses} pass
                  </span>
                  {pair ? (
                    <a
                      href={modelDiffHref({ turn: column.turnId, a: pair.a, b: pair.b })}
                      title="The round's best answer against its worst"
                      className="block font-normal normal-case tracking-normal text-brand-700 hover:underline dark:text-brand-400"
                      aria-label={`Compare models on round ${column.round}`}
                    >
                      Compare models
                    </a>
                  ) : null}
                </th>
                );
              })}
              <th scope="col" className={`${tableStyles.th} text-right`}>
                Passed
              </th>
            </tr>
          </thead>
          <tbody>
            {matrix.rows.map((row) => (
              <tr key={row.runId} data-testid="matrix-row" data-model={row.model}>
                <th scope="row" className={`${styles.matrixCell} sticky left-0 z-10 bg-white text-left font-normal dark:bg-slate-900`}>
                  <a href={`/models/${encodeURIComponent(row.series ?? row.model)}${query}`} className="font-medium hover:underline">
                    {row.displayName}
                  </a>
                  {row.showLabel ? <span className="block font-mono text-xs text-slate-500">{row.label}</span> : null}
                  {row.judge ? (
                    <span className="block text-xs text-slate-500" data-testid="matrix-judge">
                      {row.judge}
                    </span>
                  ) : null}
                  {inProgressRuns.includes(row.runId) ? (
                    <span className="block text-xs font-medium text-sky-800 dark:text-sky-300" title="Still being generated: cells fill in as turns arrive" data-testid="in-progress">
                      in progress
                    </span>
                  ) : null}
                  {matrix.columns.length >= 2 ? (
                    <a
                      href={turnDiffHref({ runId: row.runId, task: taskName, round: matrix.columns[1]!.round })}
                      className="block text-xs text-brand-700 hover:underline dark:text-brand-400"
                      aria-label={`Turn diff of ${row.displayName}${row.showLabel ? ` (${row.label})` : ""}`}
                    >
                      Turn diff
                    </a>
                  ) : null}
                </th>
                {row.cells.map((cell, index) => (
                  <td key={matrix.columns[index]!.turnId} className={styles.matrixCell}>
                    <Cell cell={cell} round={matrix.columns[index]!.round} />
                  </td>
                ))}
                <td className={`${styles.matrixCell} text-right tabular-nums`}>
                  {row.passed} / {row.responses}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="mt-3">
        <TableDownload table="matrix" rows={exportRows} name={downloadName} label="the task matrix" />
      </div>
    </>
  );
}
