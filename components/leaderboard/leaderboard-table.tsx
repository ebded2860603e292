"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { memo, useCallback, useMemo, useState, useSyncExternalStore, type FocusEvent, type MouseEvent } from "react";
import { downloadText } from "@/components/ui/download";
import { buttonStyles, inputStyles, labelStyles } from "@/components/ui/styles";
import { formatPercent } from "@/lib/format";
import { AVERAGE, METRICS, type BoardRow, type Metric, type MetricName, type MetricPair, type Source } from "@/lib/leaderboard/board";
import type { BenchmarkChoice } from "@/lib/leaderboard/benchmarks";
import { describeMetric, formatDelta, formatRank } from "@/lib/leaderboard/describe";
import { exportFileName, MIME_TYPES, render, type ExportFormat } from "@/lib/leaderboard/export";
import { boardViewColumns } from "@/lib/leaderboard/tables";
import { applyView, ariaSort, boardQuery, parseBoardState, primarySource, toggleSort, type BoardState, type ViewSource } from "@/lib/leaderboard/view";
import { decodeBoard, type WireBoard } from "@/lib/leaderboard/wire";
import { describePredictedCoverage, formatPredictedExecution, PREDICTED_EXECUTION_LABEL } from "@/lib/leaderboard/predicted";
import styles from "./leaderboard.module.css";

const SOURCE_LABELS: Record<ViewSource, string> = { measured: "Measured", published: "Published", both: "Side by side" };
const METRIC_LABELS: Record<MetricName, string> = { pass: "Pass", resolve: "Resolve" };

function modelHref(model: string, benchmark: string, domain: string | null, judge: string): string {
  const params = new URLSearchParams();
  if (benchmark) params.set("benchmark", benchmark);
  if (domain) params.set("domain", domain);
  if (judge) params.set("judge", judge);
  const query = params.toString();
  return `/models/${encodeURIComponent(model)}${query ? `?${query}` : ""}`;
}

function SortHeader({ state, sort, onSort, children, className }: { state: BoardState; sort: string; onSort: (sort: string) => void; children: React.ReactNode; className?: string }) {
  const current = ariaSort(state, sort);
  return (
    <th scope="col" aria-sort={current} className={className}>
      <button type="button" onClick={() => onSort(sort)} className="inline-flex items-center gap-0.5 rounded px-1 py-0.5 text-[11px] font-semibold uppercase tracking-wide hover:bg-slate-100 dark:hover:bg-slate-800">
        {children}
        <span aria-hidden="true" className="w-3 text-slate-400">
          {current === "ascending" ? "▲" : current === "descending" ? "▼" : "↕"}
        </span>
      </button>
    </th>
  );
}

function FigureTooltip({ id, lines, above, alignRight }: { id: string; lines: string[]; above: boolean; alignRight: boolean }) {
  return (
    <span role="tooltip" id={id} className={`${styles.tooltip} ${above ? styles.above : styles.below} ${alignRight ? styles.right : styles.center}`}>
      {lines.map((line) => (
        <span key={line}>{line}</span>
      ))}
    </span>
  );
}

function tooltipLines(pair: MetricPair, metric: MetricName, source: ViewSource, judge: string | undefined): string[] {
  const lines: string[] = [];
  const add = (figure: Metric | null, which: Source, prefix: string) => {
    if (figure) lines.push(`${prefix}${describeMetric(figure, metric, which)}`);
    else if (which === "measured" && pair.notJudged) lines.push(`${prefix}not judged: ${pair.notJudged} test cases have text outputs no LLM judge has answered, so there is no rate (and no rank) until they are judged`);
    else lines.push(`${prefix}no ${which === "measured" ? "measured figure" : "published figure"}${metric === "resolve" && which === "measured" ? " (no resolve data)" : ""}`);
  };
  if (source === "both") {
    add(pair.measured, "measured", "Measured: ");
    add(pair.published, "published", "Published: ");
    if (pair.delta !== null) lines.push(`Difference: ${formatDelta(pair.delta)}`);
  } else add(pair[source], source, "");
  if (judge && source !== "published" && pair.measured) lines.push(`Judged by: ${judge}`);
  return lines;
}

const EMPTY_PAIR: MetricPair = { measured: null, published: null, delta: null };

/** One figure: a plain link (thousands of them: no client router per cell) and, while hovered or focused, its tooltip. */
function FigureCell({ row, column, metric, source, href, active, above, alignRight, mobileHidden }: { row: BoardRow; column: string; metric: MetricName; source: ViewSource; href: string; active: boolean; above: boolean; alignRight: boolean; mobileHidden: boolean }) {
  const pair = row.cells[column]?.[metric] ?? EMPTY_PAIR;
  const primary = source === "both" ? pair.measured : pair[source];
  const sd = primary?.spread?.sd;
  const id = `tip-${column}-${metric}`;
  return (
    <td className={`${styles.cell} ${metric === "pass" ? styles.first : ""} ${column === AVERAGE ? styles.average : ""} ${mobileHidden ? styles.mobileHidden : ""}`} data-column={column} data-metric={metric}>
      <a href={href} className={styles.link} aria-describedby={active ? id : undefined}>
        {primary ? (
          <span>{formatPercent(primary.rate)}</span>
        ) : source !== "published" && pair.notJudged ? (
          <span className={styles.notJudged}>not judged ({pair.notJudged})</span>
        ) : (
          <span className={styles.muted}>—</span>
        )}
        {/* The run-to-run deviation under the overall figures; every figure's tooltip gives its own. */}
        {column === AVERAGE && sd !== null && sd !== undefined ? <span className={styles.sub}>± {(sd * 100).toFixed(1)} pp</span> : null}
        {source === "both" ? (
          <>
            <span className={styles.sub}>pub {pair.published ? formatPercent(pair.published.rate) : "—"}</span>
            <span className={`${styles.sub} ${pair.delta === null || pair.delta === 0 ? "" : pair.delta > 0 ? styles.up : styles.down}`}>Δ {formatDelta(pair.delta)}</span>
          </>
        ) : null}
      </a>
      {active ? <FigureTooltip id={id} lines={tooltipLines(pair, metric, source, row.judge)} above={above} alignRight={alignRight} /> : null}
    </td>
  );
}

/** The row's "Predicted execution" (ours): the figure with its count, then what it covers and leaves out. */
function PredictedCell({ row }: { row: BoardRow }) {
  const figure = row.predicted;
  const text = figure ? formatPredictedExecution(figure) : null;
  return (
    <td className={`${styles.cell} ${styles.mobileHidden} border-l border-slate-200 dark:border-slate-800`} data-testid="predicted-execution">
      {text ? <span data-testid="predicted-figure">{text}</span> : <span className={styles.muted}>{figure ? "not counted" : "—"}</span>}
      {figure
        ? describePredictedCoverage(figure).map((line) => (
            <span key={line} className={styles.sub}>
              {line}
            </span>
          ))
        : null}
    </td>
  );
}

const stickyRank = "sticky left-0 z-20 w-10 min-w-10 bg-white dark:bg-slate-900";
const stickyModel = "sticky left-10 z-20 min-w-32 max-w-44 bg-white shadow-[1px_0_0_0_rgb(226,232,240)] dark:bg-slate-900 dark:shadow-[1px_0_0_0_rgb(30,41,59)]";

const PHONE_QUERY = "(max-width: 639px)";
const subscribePhone = (onChange: () => void) => {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
};

/** True on phone-width screens (false while rendering on the server; CSS hides the extra columns until then). */
function useCompact(): boolean {
  return useSyncExternalStore(subscribePhone, () => window.matchMedia(PHONE_QUERY).matches, () => false);
}

/** Average first (it must never scroll off), then the domains in the official order. */
function displayColumns(columns: readonly string[]): string[] {
  return [...columns.filter((column) => column === AVERAGE), ...columns.filter((column) => column !== AVERAGE)];
}

/** The 95% interval of the ranking figure as a bar on a 0–100% scale, with the estimate marked. */
function IntervalBar({ figure }: { figure: Metric | null }) {
  if (!figure) return <span className={styles.muted}>—</span>;
  const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
  return (
    <span className={styles.interval} title={`95% interval ${formatPercent(figure.lower)} – ${formatPercent(figure.upper)} (Wilson, k = ${figure.k}, n = ${figure.n})`}>
      <span className={styles.intervalTrack} aria-hidden="true">
        <span className={styles.intervalRange} style={{ left: pct(figure.lower), width: pct(Math.max(figure.upper - figure.lower, 0.004)) }} />
        <span className={styles.intervalPoint} style={{ left: pct(figure.rate) }} />
      </span>
      <span className={styles.intervalText}>
        {(figure.lower * 100).toFixed(0)}–{(figure.upper * 100).toFixed(0)}
      </span>
    </span>
  );
}

interface RowProps {
  row: BoardRow;
  columns: string[];
  source: ViewSource;
  rankBy: MetricName;
  benchmark: string;
  /** The judge choice links carry ("" for the recorded verdicts). */
  judge: string;
  /** The one domain shown beside the average on a phone. */
  mobileDomain: string;
  metrics: readonly MetricName[];
  /** "<column>.<metric>" of the figure showing its tooltip, when it is in this row. */
  active: string | null;
  above: boolean;
  /** A run of the model is still being generated: its figures are partial. */
  inProgress: boolean;
  /** Some row has dry-run results: the "Predicted execution" column follows the Average figures. */
  predicted: boolean;
}

/** Memoized: hovering a figure re-renders only its row. */
const LeaderboardRow = memo(function LeaderboardRow({ row, columns, metrics, source, rankBy, benchmark, judge, mobileDomain, active, above, inProgress, predicted }: RowProps) {
  const rank = row.ranks[primarySource(source)][rankBy];
  const rankFigure = row.cells[AVERAGE]?.[rankBy][primarySource(source)] ?? null;
  const base = modelHref(row.name, benchmark, null, judge);
  const separator = base.includes("?") ? "&" : "?";
  return (
    <tr data-testid="leaderboard-row" data-model={row.model ?? row.name} data-series={row.name} className={styles.row}>
      <td className={styles.rankCell} data-testid="rank">
        <span title={rank.tied ? "Tied: another model has exactly the same rate" : rank.rank === null ? "Not ranked: no figure for the ranking metric" : undefined}>
          {formatRank(rank)}
        </span>
      </td>
      <th scope="row" className={styles.modelCell}>
        <a href={base} className={styles.modelName}>
          {row.displayName}
        </a>
        {row.configuration ? (
          <span className={styles.configuration} data-testid="row-configuration" title="How this row's runs were made and judged: only runs of one configuration pool into a row">
            {row.configuration}
            {row.awaitingJudge ? <span className={styles.awaiting}> · {row.awaitingJudge} turn{row.awaitingJudge === 1 ? "" : "s"} awaiting its judge (rule judge until then)</span> : null}
          </span>
        ) : null}
        <span className={styles.meta}>
          {row.displayName !== (row.model ?? row.name) ? <span className={styles.mono}>{row.model ?? row.name}</span> : null}
          {row.family ? <span>{row.family}</span> : null}
          {row.access ? <span className={`${styles.tag} ${row.access === "open" ? styles.tagOpen : ""}`}>{row.access}</span> : null}
          {row.runs > 1 ? (
            <span className={`${styles.tag} ${styles.tagRuns}`} title="Runs pooled into the measured figures">
              {row.runs} runs
            </span>
          ) : null}
          {inProgress ? (
            <span className={styles.tag} title="A run of this model is still being generated: its figures fill in as turns arrive" data-testid="in-progress">
              in progress
            </span>
          ) : null}
        </span>
      </th>
      <td className={`${styles.ubCell} ${styles.mobileHidden}`} data-testid="rank-ub" title={rank.upperBound === null ? undefined : `${rank.upperBound - 1} model${rank.upperBound === 2 ? " is" : "s are"} significantly better (95% intervals wholly above)`}>
        {rank.upperBound ?? "—"}
      </td>
      <td className={`${styles.cell} ${styles.mobileHidden}`} data-testid="rank-interval">
        <IntervalBar figure={rankFigure} />
      </td>
      {columns.flatMap((column, columnIndex) => [
        ...metrics.map((metric) => (
          <FigureCell
            key={`${column}.${metric}`}
            row={row}
            column={column}
            metric={metric}
            source={source}
            href={column === AVERAGE ? base : `${base}${separator}domain=${encodeURIComponent(column)}`}
            active={active === `${column}.${metric}`}
            above={above}
            alignRight={columnIndex >= columns.length - 2}
            mobileHidden={column !== AVERAGE && column !== mobileDomain}
          />
        )),
        ...(predicted && column === AVERAGE ? [<PredictedCell key="predicted" row={row} />] : []),
      ])}
    </tr>
  );
});

export interface LeaderboardTableProps {
  /** The board in its compact form (lib/leaderboard/wire), decoded here. */
  wire: WireBoard;
  benchmarks: BenchmarkChoice[];
  /** The selected benchmark as links write it (name or id), "" when none is imported. */
  benchmark: string;
  /** What figure links carry as ?benchmark=: "" while the page shows the default benchmark (shorter links). */
  linkBenchmark: string;
  benchmarkName: string | null;
  runCount: number;
  /** Rows (series) with a run still being generated (marked "in progress"). */
  inProgressModels?: readonly string[];
}

export function LeaderboardTable({ wire, benchmarks, benchmark, linkBenchmark, benchmarkName, runCount, inProgressModels = [] }: LeaderboardTableProps) {
  const board = useMemo(() => decodeBoard(wire), [wire]);
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const router = useRouter();
  const state = useMemo(() => parseBoardState(new URLSearchParams(searchParams.toString())), [searchParams]);
  const [query, setQuery] = useState(state.q);
  const [active, setActive] = useState<{ model: string; cell: string } | null>(null);
  const activate = useCallback((event: MouseEvent<HTMLElement> | FocusEvent<HTMLElement>) => {
    const target = event.target instanceof Element ? event.target.closest("td[data-column]") : null;
    const model = target?.closest("tr")?.getAttribute("data-series");
    if (!target || !model) return;
    const cell = `${target.getAttribute("data-column")}.${target.getAttribute("data-metric")}`;
    setActive((current) => (current?.model === model && current.cell === cell ? current : { model, cell }));
  }, []);
  const deactivate = useCallback(() => setActive(null), []);
  const rows = useMemo(() => applyView(board.rows, state), [board.rows, state]);
  const columns = useMemo(() => displayColumns(board.columns), [board.columns]);
  const domains = columns.filter((column) => column !== AVERAGE);
  const [mobileDomain, setMobileDomain] = useState(domains[0] ?? "");
  const compact = useCompact();
  // A phone shows the model, the average and one chosen domain, each with the ranking metric only.
  const shownColumns = compact ? columns.filter((column) => column === AVERAGE || column === mobileDomain) : columns;
  const shownMetrics: readonly MetricName[] = compact ? [state.rankBy] : METRICS;
  const total = useMemo(() => applyView(board.rows, { ...state, q: "", access: "all", family: "" }).length, [board.rows, state]);
  // Shown only where some row's runs were dry-run: a measured figure of ours, so never beside published figures alone.
  const showPredicted = state.source !== "published" && board.rows.some((row) => row.predicted !== undefined);

  const update = (next: Partial<BoardState>) => {
    window.history.replaceState(null, "", `${pathname}${boardQuery({ ...state, ...next })}`);
  };
  const onSort = (sort: string) => update(toggleSort(state, sort));
  const viewColumns = boardViewColumns(board.columns, state, showPredicted);
  const saveView = (format: ExportFormat) =>
    downloadText(exportFileName(["leaderboard", state.source, benchmarkName ?? "published", "view"], format), render(viewColumns, rows, format), MIME_TYPES[format]);
  const exportHref = (which: Source, format: ExportFormat) => {
    const params = new URLSearchParams({ source: which, format });
    if (which === "measured" && benchmark) params.set("benchmark", benchmark);
    if (which === "measured" && state.judge) params.set("judge", state.judge);
    return `/api/export/leaderboard?${params}`;
  };

  return (
    <section aria-label="Leaderboard" className="space-y-4">
      <form className="flex flex-wrap items-end gap-x-5 gap-y-3" role="search" aria-label="Leaderboard view" onSubmit={(event) => event.preventDefault()}>
        <fieldset>
          <legend className={labelStyles}>Figures</legend>
          <div className="mt-1 inline-flex overflow-hidden rounded-md border border-slate-300 dark:border-slate-600">
            {(Object.keys(SOURCE_LABELS) as ViewSource[]).map((value) => (
              <label key={value} className={`cursor-pointer px-3 py-1.5 text-sm has-[:focus-visible]:outline-2 ${state.source === value ? "bg-brand-600 text-white" : "bg-white hover:bg-slate-50 dark:bg-slate-900 dark:hover:bg-slate-800"}`}>
                <input type="radio" name="source" value={value} checked={state.source === value} onChange={() => update({ source: value })} className="sr-only" />
                {SOURCE_LABELS[value]}
              </label>
            ))}
          </div>
        </fieldset>
        {state.source === "both" ? (
          <label className={labelStyles}>
            Sort values by
            <select className={inputStyles} value={state.by} onChange={(event) => update({ by: event.target.value as BoardState["by"] })}>
              <option value="measured">measured</option>
              <option value="published">published</option>
              <option value="delta">difference</option>
            </select>
          </label>
        ) : null}
        <label className={labelStyles}>
          Rank by
          <select className={inputStyles} value={state.rankBy} onChange={(event) => update({ rankBy: event.target.value as MetricName })}>
            <option value="resolve">average resolve rate</option>
            <option value="pass">average pass rate</option>
          </select>
        </label>
        <label className={labelStyles}>
          Access
          <select className={inputStyles} value={state.access} onChange={(event) => update({ access: event.target.value as BoardState["access"] })}>
            <option value="all">open and closed</option>
            <option value="open">open models</option>
            <option value="closed">closed models</option>
          </select>
        </label>
        <label className={labelStyles}>
          Family
          <select className={inputStyles} value={state.family} onChange={(event) => update({ family: event.target.value })}>
            <option value="">all families</option>
            {board.families.map((family) => (
              <option key={family} value={family}>
                {family}
              </option>
            ))}
          </select>
        </label>
        <label className={labelStyles}>
          Search models
          <input
            type="search"
            className={inputStyles}
            value={query}
            placeholder="name or family"
            onChange={(event) => {
              setQuery(event.target.value);
              update({ q: event.target.value });
            }}
          />
        </label>
        {domains.length > 0 ? (
          <label className={`${labelStyles} sm:hidden`}>
            Domain beside the average
            <select className={inputStyles} value={mobileDomain} onChange={(event) => setMobileDomain(event.target.value)} data-testid="mobile-domain">
              {domains.map((domain) => (
                <option key={domain} value={domain}>
                  {domain}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {benchmarks.length > 1 && state.source !== "published" ? (
          <label className={labelStyles}>
            Benchmark
            <select className={inputStyles} value={benchmark} onChange={(event) => router.push(`${pathname}${boardQuery({ ...state, benchmark: event.target.value })}`)}>
              {benchmarks.map((choice) => (
                <option key={choice.id} value={benchmarks.filter((other) => other.name === choice.name).length > 1 ? choice.id : choice.name}>
                  {choice.name} ({choice.runCount} runs)
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </form>

      <p className="text-sm text-slate-600 dark:text-slate-400" aria-live="polite" data-testid="leaderboard-summary">
        {rows.length} of {total} models
        {state.source !== "published" && benchmarkName ? ` · measured on ${benchmarkName} (${runCount} run${runCount === 1 ? "" : "s"})` : ""}
        {state.source !== "measured" ? " · published: the paper's Table 1, means of three runs" : ""}
      </p>

      {total === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 px-6 py-10 text-center text-sm dark:border-slate-700">
          <p className="font-medium">{state.source === "measured" ? "No runs on this benchmark yet." : "No figures to show."}</p>
          <p className="mt-2 text-slate-600 dark:text-slate-400">
            Import runs to measure them, or{" "}
            <button type="button" className="text-brand-700 underline dark:text-brand-400" onClick={() => update({ source: "published" })}>
              show the published figures
            </button>
            .
          </p>
        </div>
      ) : rows.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 px-6 py-10 text-center text-sm dark:border-slate-700">
          <p className="font-medium">No model matches these filters.</p>
          <button
            type="button"
            className={`${buttonStyles.secondary} mt-3`}
            onClick={() => {
              setQuery("");
              update({ q: "", access: "all", family: "" });
            }}
          >
            Clear filters
          </button>
        </div>
      ) : (
        <div className={`relative overflow-x-auto rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900 ${rows.length <= 4 ? "pb-20" : ""}`}>
          <table className="min-w-full border-separate border-spacing-0 text-sm" data-testid="leaderboard-table">
            <caption className="sr-only">
              Pass and resolve rates per model and domain ({SOURCE_LABELS[state.source].toLowerCase()}). Column headers sort; each figure opens the model&apos;s turns.
            </caption>
            <thead className="text-xs text-slate-500 dark:text-slate-400">
              <tr>
                <SortHeader state={state} sort="rank" onSort={onSort} className={`${stickyRank} border-b border-slate-200 px-1 py-2 text-left align-bottom dark:border-slate-800`}>
                  Rank
                </SortHeader>
                <SortHeader state={state} sort="model" onSort={onSort} className={`${stickyModel} border-b border-slate-200 px-2 py-2 text-left align-bottom dark:border-slate-800`}>
                  Model
                </SortHeader>
                <th scope="col" rowSpan={2} className={`${styles.mobileHidden} border-b border-slate-200 px-1 py-2 text-left align-bottom text-[11px] font-semibold uppercase tracking-wide dark:border-slate-800`}>
                  <abbr title="Rank (upper bound): 1 + the number of models significantly better (their 95% interval lies wholly above this model's)" className="no-underline">
                    Rank (UB)
                  </abbr>
                </th>
                <th scope="col" rowSpan={2} className={`${styles.mobileHidden} border-b border-slate-200 px-1 py-2 text-left align-bottom text-[11px] font-semibold uppercase tracking-wide dark:border-slate-800`}>
                  95% CI <span className="font-normal normal-case">({METRIC_LABELS[state.rankBy].toLowerCase()}, avg.)</span>
                </th>
                {shownColumns.flatMap((column) => [
                  <th key={column} scope="colgroup" colSpan={shownMetrics.length} className={`border-b border-l border-slate-200 px-2 pt-2 text-center font-semibold text-slate-700 dark:border-slate-800 dark:text-slate-200 ${column === AVERAGE ? "bg-slate-50 dark:bg-slate-800/50" : ""} ${column !== AVERAGE && column !== mobileDomain ? styles.mobileHidden : ""}`}>
                    {column}
                  </th>,
                  ...(showPredicted && column === AVERAGE
                    ? [
                        <th key="predicted" scope="col" rowSpan={2} className={`${styles.mobileHidden} border-b border-l border-slate-200 px-2 py-2 text-left align-bottom text-[11px] font-semibold uppercase tracking-wide dark:border-slate-800`} data-testid="predicted-header">
                          <abbr title={PREDICTED_EXECUTION_LABEL} aria-describedby="predicted-footnote" className="no-underline">
                            Predicted execution
                          </abbr>
                          <sup aria-hidden="true">*</sup>
                        </th>,
                      ]
                    : []),
                ])}
              </tr>
              <tr>
                <td className={`${stickyRank} border-b border-slate-200 dark:border-slate-800`} />
                <td className={`${stickyModel} border-b border-slate-200 dark:border-slate-800`} />
                {shownColumns.flatMap((column) =>
                  shownMetrics.map((metric) => (
                    <SortHeader
                      key={`${column}.${metric}`}
                      state={state}
                      sort={`${column}.${metric}`}
                      onSort={onSort}
                      className={`border-b border-slate-200 px-0 pb-1 text-right dark:border-slate-800 ${metric === "pass" ? "border-l" : ""} ${column === AVERAGE ? "bg-slate-50 dark:bg-slate-800/50" : ""} ${column !== AVERAGE && column !== mobileDomain ? styles.mobileHidden : ""}`}
                    >
                      <span className="sr-only">{column} </span>
                      {METRIC_LABELS[metric]}
                      <span className="sr-only"> rate</span>
                    </SortHeader>
                  )),
                )}
              </tr>
            </thead>
            <tbody onMouseOver={activate} onFocus={activate} onMouseLeave={deactivate} onBlur={deactivate}>
              {rows.map((row, rowIndex) => (
                <LeaderboardRow
                  key={row.name}
                  row={row}
                  columns={shownColumns}
                  metrics={shownMetrics}
                  source={state.source}
                  rankBy={state.rankBy}
                  benchmark={linkBenchmark}
                  judge={state.judge}
                  mobileDomain={mobileDomain}
                  active={active?.model === row.name ? active.cell : null}
                  // Tooltips of the last rows open upwards so the scrolling wrapper does not clip them.
                  above={rows.length > 4 && rowIndex >= rows.length - 3}
                  inProgress={inProgressModels.includes(row.name)}
                  predicted={showPredicted}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {rows.length > 0 ? (
        <p className="max-w-4xl text-xs text-slate-600 dark:text-slate-400" data-testid="rank-explanation">
          <strong>Rank</strong> orders models by their average {METRIC_LABELS[state.rankBy].toLowerCase()} rate (equal rates share a rank, shown as &ldquo;3=&rdquo;).{" "}
          <strong>Rank (UB)</strong> is 1 + the number of models significantly better, i.e. whose 95% Wilson interval lies wholly above this model&apos;s: a
          model with few turns has a wide interval and can have Rank (UB) 1 while ranking low. The bar shows that interval on a 0–100% scale, with the
          rate marked.
        </p>
      ) : null}
      {rows.length > 0 && showPredicted ? (
        <p id="predicted-footnote" className="max-w-4xl text-xs text-slate-600 dark:text-slate-400" data-testid="predicted-footnote">
          * <strong>Predicted execution</strong> ({PREDICTED_EXECUTION_LABEL}): of the dry-run executions of a row&apos;s passing turns (three test cases
          each), the share predicted to reach the judge (the run completes and the resolve stage&apos;s file check does not fail). Only runs whose every
          passing turn was dry-run count; a partly dry-run run is named, not pooled, and executions with a model endpoint (local execution) are never
          pooled with the mock model&apos;s.
        </p>
      ) : null}

      <div className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm">
        <div className="flex items-center gap-2" role="group" aria-label="Download this view">
          <span className="text-slate-500">This view</span>
          <button type="button" className={buttonStyles.secondary} onClick={() => saveView("csv")}>
            CSV
          </button>
          <button type="button" className={buttonStyles.secondary} onClick={() => saveView("json")}>
            JSON
          </button>
        </div>
        <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Download all figures">
          <span className="text-slate-500">All counts (overall, domains, rounds)</span>
          {benchmark ? (
            <>
              <a className={buttonStyles.secondary} href={exportHref("measured", "csv")} download>
                measured CSV
              </a>
              <a className={buttonStyles.secondary} href={exportHref("measured", "json")} download>
                measured JSON
              </a>
            </>
          ) : null}
          <a className={buttonStyles.secondary} href={exportHref("published", "csv")} download>
            published CSV
          </a>
          <a className={buttonStyles.secondary} href={exportHref("published", "json")} download>
            published JSON
          </a>
        </div>
      </div>
    </section>
  );
}

