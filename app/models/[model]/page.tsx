import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { JudgedByBar } from "@/components/judges/judged-by-bar";
import { BenchmarkSelect } from "@/components/leaderboard/benchmark-select";
import { TableDownload } from "@/components/leaderboard/table-download";
import { CaseChips, PassVerdict } from "@/components/leaderboard/verdicts";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { buttonStyles, cardStyles, tableStyles } from "@/components/ui/styles";
import { formatPercent, formatRatio } from "@/lib/format";
import { AVERAGE, publishedMetric } from "@/lib/leaderboard/board";
import { formatInterval } from "@/lib/leaderboard/describe";
import { summarizeTurns } from "@/lib/leaderboard/turns";
import { decodeSegment, param } from "@/lib/leaderboard/view";
import { PUBLISHED_TURNS } from "@/lib/published/denominators";
import { wilsonInterval } from "@/lib/stats/intervals";
import { sortDomains } from "@/lib/stats/rates";
import { database } from "@/lib/server/db";
import { getModelOverview, getModelTurns } from "@/lib/server/data/drilldown";
import { drilldownJudge } from "@/lib/server/data/judged-by";
import { resolveJudgedBy } from "@/lib/server/data/judges";
import { getPublishedFigures, selectBenchmark } from "@/lib/server/data/leaderboard";
import { nameBenchmarkInUrl } from "@/lib/server/benchmark-url";
import { requirePagePermission } from "@/lib/server/session";
import { getRowStability } from "@/lib/server/data/stability";
import { StabilitySection } from "@/components/runs/stability-section";

type Props = { params: Promise<{ model: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { model } = await params;
  return { title: `Model ${decodeSegment(model) ?? model}` };
}

function Rate({ label, num, den, notJudged = 0 }: { label: string; num: number | null; den: number | null; notJudged?: number }) {
  const interval = num !== null && den !== null ? wilsonInterval(num, den) : null;
  return (
    <div>
      <dt className="text-xs uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums">{notJudged > 0 ? `not judged (${notJudged})` : num === null || den === null ? "—" : formatRatio(num, den)}</dd>
      <dd className="text-xs text-slate-500">
        {notJudged > 0 ? "test cases no LLM judge has answered: no rate until they are judged" : num === null || den === null ? "no resolve data" : `${num} of ${den}`}
        {interval?.ok && interval.value ? ` · 95% CI ${formatInterval(interval.value.lower, interval.value.upper)}` : ""}
      </dd>
    </div>
  );
}

export default async function ModelPage({ params, searchParams }: Props) {
  const { model: rawModel } = await params;
  const modelName = decodeSegment(rawModel);
  if (modelName === null) notFound();
  const user = await requirePagePermission("read", `/models/${encodeURIComponent(modelName)}`);
  const query = await searchParams;
  const db = database();
  const selection = await selectBenchmark(db, user, param(query, "benchmark") ?? null);
  const benchmarkId = selection.benchmark?.id ?? null;
  nameBenchmarkInUrl(`/models/${encodeURIComponent(modelName)}`, query, selection.param);
  // The segment names a leaderboard row: a model under one configuration (its name alone for its official recorded runs).
  const seriesName = modelName;
  const overview = await getModelOverview(db, user, benchmarkId, seriesName);
  const baseModel = overview?.model.model ?? modelName;
  // The paper's figures are of the official runs: shown beside the official row only.
  const published = seriesName === baseModel ? (await getPublishedFigures(db, user)).filter((figure) => figure.modelName === baseModel) : [];
  if (!overview && published.length === 0) notFound();

  const domain = param(query, "domain") || null;
  const roundText = param(query, "round");
  const round = roundText && /^\d+$/.test(roundText) ? Number(roundText) : null;
  const runId = param(query, "run") || null;
  const judgedBy = await resolveJudgedBy(db, user, benchmarkId, param(query, "judge"));
  const underJudge = benchmarkId ? await drilldownJudge(db, user, benchmarkId, judgedBy.choice) : null;
  const judge = underJudge?.judge ?? null;
  const benchmarkQuery = [selection.param ? `benchmark=${encodeURIComponent(selection.param)}` : "", judgedBy.choice.param ? `judge=${encodeURIComponent(judgedBy.choice.param)}` : ""].filter(Boolean).join("&");
  const displayName = overview?.model.displayName ?? published[0]?.displayName ?? modelName;
  const family = overview?.model.family ?? published[0]?.family ?? null;
  const access = overview?.model.access ?? published[0]?.access ?? null;
  const runs = overview?.runs ?? [];

  const runIds = runs.map((run) => run.id);
  const rows = benchmarkId && runs.length ? await getModelTurns(db, user, benchmarkId, baseModel, { domain, round, runId, runIds }, judge) : [];
  const allRows = domain || round || runId ? (benchmarkId && runs.length ? await getModelTurns(db, user, benchmarkId, baseModel, { runIds }, judge) : []) : rows;
  const configurations = overview?.series ?? [];
  // Stability pools only the runs of this row's configuration, by their own judges (a "Judged by" re-view excludes it).
  const stability = runs.length >= 2 && !judge ? await getRowStability(db, user, runIds) : null;
  const rowJudge = judge ? judgedBy.description : (overview?.chosen?.judge ?? null);
  const domains = sortDomains(allRows.map((row) => row.domain));
  const rounds = [...new Set(allRows.map((row) => row.round))].sort((a, b) => a - b);
  const summary = summarizeTurns(rows);
  const figure = published.find((entry) => entry.domain === (domain ?? AVERAGE));
  const scope = domain ?? (round ? `round ${round}` : "all turns");
  const link = (next: { domain?: string | null; round?: number | null; run?: string | null }) => {
    const search = new URLSearchParams(benchmarkQuery);
    if (next.domain) search.set("domain", next.domain);
    if (next.round) search.set("round", String(next.round));
    if (next.run) search.set("run", next.run);
    const text = search.toString();
    return `/models/${encodeURIComponent(seriesName)}${text ? `?${text}` : ""}`;
  };
  const chip = (label: string, href: string, active: boolean) => (
    <Link key={label} href={href} aria-current={active ? "page" : undefined} className={`rounded-full px-3 py-1 text-sm ring-1 ${active ? "bg-brand-600 text-white ring-brand-600" : "bg-white ring-slate-300 hover:bg-slate-50 dark:bg-slate-900 dark:ring-slate-700"}`}>
      {label}
    </Link>
  );

  return (
    <>
      <PageHeader
        title={displayName}
        description={
          <span className="flex flex-wrap items-center gap-2">
            {displayName !== baseModel ? <span className="font-mono">{baseModel}</span> : null}
            {overview?.chosen ? <span data-testid="model-configuration">{overview.chosen.configuration}</span> : null}
            {family ? <span>{family}</span> : null}
            {access ? <Badge tone={access === "open" ? "info" : "neutral"}>{access}</Badge> : null}
            <span>
              {runs.length} run{runs.length === 1 ? "" : "s"} on {selection.benchmark?.name ?? "no benchmark"}
            </span>
          </span>
        }
        actions={
          <>
            <Link href={`/${benchmarkQuery ? `?${benchmarkQuery}` : ""}`} className={buttonStyles.secondary}>
              Leaderboard
            </Link>
            {runs.length ? (
              <Link href={`/compare?${new URLSearchParams({ ...(selection.param ? { benchmark: selection.param } : {}), ...(judgedBy.choice.param ? { judge: judgedBy.choice.param } : {}), a: seriesName })}`} className={buttonStyles.secondary}>
                Compare with another model
              </Link>
            ) : null}
          </>
        }
      />
      <div className="mb-4">
        <BenchmarkSelect choices={selection.choices} value={selection.param} />
        {benchmarkId ? (
          <JudgedByBar
            judgedBy={judgedBy}
            judging={underJudge ? underJudge.judging.filter((run) => run.model === baseModel) : null}
            benchmarkQuery={selection.param ? `?benchmark=${encodeURIComponent(selection.param)}` : ""}
          />
        ) : null}
      </div>

      {stability ? <StabilitySection stability={stability} /> : null}
      {configurations.length > 1 || (configurations.length === 1 && !overview?.chosen) ? (
        <nav aria-label="Configurations of this model" className="mb-4 text-sm">
          <p className="mb-1 text-slate-600 dark:text-slate-400">
            {overview?.chosen ? "Other configurations of this model (separate leaderboard rows):" : "This model has runs of several configurations, each its own leaderboard row; choose one:"}
          </p>
          <ul className="flex flex-wrap gap-2" data-testid="model-configurations">
            {configurations.map((entry) => (
              <li key={entry.id}>
                <Link
                  href={`/models/${encodeURIComponent(entry.id)}${benchmarkQuery ? `?${benchmarkQuery}` : ""}`}
                  aria-current={entry.id === overview?.chosen?.id ? "page" : undefined}
                  className={`inline-block rounded-md px-2 py-1 ring-1 ${entry.id === overview?.chosen?.id ? "bg-brand-600 text-white ring-brand-600" : "ring-slate-300 hover:bg-slate-50 dark:ring-slate-700 dark:hover:bg-slate-800"}`}
                >
                  {entry.configuration} ({entry.runs.length} run{entry.runs.length === 1 ? "" : "s"})
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {runs.length === 0 && configurations.length > 0 ? null : runs.length === 0 ? (
        <div className="space-y-6">
          <EmptyState title="No runs of this model on this benchmark" action={{ href: "/import", label: "Import runs" }}>
            {published.length ? "Only the paper's published figures are known for this model. " : ""}Import a run of {baseModel} to see its turns here.
          </EmptyState>
          {published.length ? (
            <DataTable
              caption={`${displayName}: published figures (the paper's Table 1, means of three runs)`}
              headers={["Domain", "Pass rate", "Resolve rate"]}
              numeric={[1, 2]}
              rows={sortDomains(published.map((entry) => entry.domain).filter((name) => name !== AVERAGE))
                .concat(AVERAGE)
                .flatMap((name) => published.filter((entry) => entry.domain === name))
                .map((entry) => [entry.domain, formatPercent(entry.passRate / 100), formatPercent(entry.resolveRate / 100)])}
            />
          ) : null}
        </div>
      ) : (
        <>
          <nav aria-label="Filter turns" className="mb-4 space-y-2">
            <div className="flex flex-wrap gap-2">
              {chip("All turns", link({ run: runId }), !domain && !round)}
              {domains.map((name) => chip(name, link({ domain: name, run: runId }), domain === name))}
            </div>
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <span className="text-slate-500">Round</span>
              {rounds.map((value) => chip(`Round ${value}`, link({ round: value, domain, run: runId }), round === value))}
              {runs.length > 1 ? (
                <>
                  <span className="ml-4 text-slate-500">Run</span>
                  {chip("all runs", link({ domain, round }), !runId)}
                  {runs.map((run) => chip(run.label, link({ domain, round, run: run.id }), runId === run.id))}
                </>
              ) : null}
            </div>
          </nav>

          <section aria-label="Rates" className={`${cardStyles} mb-6`}>
            <h2 className="mb-3 text-sm font-medium">
              {scope}
              {runs.length > 1 && !runId ? ` · ${runs.length} runs of one configuration pooled` : ""}
              {rowJudge ? <span className="font-normal text-slate-600 dark:text-slate-400" data-testid="model-judge"> · judged by {rowJudge}</span> : null}
            </h2>
            <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
              <Rate label="Pass rate" num={summary.passed} den={summary.turns} />
              <Rate label="Resolve rate" num={summary.casesPassed} den={summary.cases} notJudged={summary.casesNotJudged} />
              {figure && !round ? (
                <>
                  <div>
                    <dt className="text-xs uppercase tracking-wide text-slate-500">Published pass</dt>
                    <dd className="text-2xl font-semibold tabular-nums">{formatPercent(figure.passRate / 100)}</dd>
                    <dd className="text-xs text-slate-500">
                      mean of 3 runs ≈ {publishedMetric(figure.passRate, PUBLISHED_TURNS[figure.domain] ?? 0, 1).num} of {PUBLISHED_TURNS[figure.domain]}
                    </dd>
                  </div>
                  <div>
                    <dt className="text-xs uppercase tracking-wide text-slate-500">Published resolve</dt>
                    <dd className="text-2xl font-semibold tabular-nums">{formatPercent(figure.resolveRate / 100)}</dd>
                    <dd className="text-xs text-slate-500">the paper&apos;s Table 1</dd>
                  </div>
                </>
              ) : null}
            </dl>
          </section>

          {rows.length === 0 ? (
            <EmptyState title="No turns match">Choose another domain or round.</EmptyState>
          ) : (
            <div className={tableStyles.wrapper}>
              <table className={tableStyles.table} data-testid="model-turns">
                <caption className="sr-only">
                  {displayName}: turns ({scope}) with the pass verdict, the first diagnostic and the three test cases
                </caption>
                <thead>
                  <tr>
                    <th scope="col" className={tableStyles.th}>Task</th>
                    <th scope="col" className={tableStyles.th}>Round</th>
                    {!domain ? <th scope="col" className={tableStyles.th}>Domain</th> : null}
                    {runs.length > 1 && !runId ? <th scope="col" className={tableStyles.th}>Run</th> : null}
                    <th scope="col" className={tableStyles.th}>Pass</th>
                    <th scope="col" className={tableStyles.th}>First diagnostic</th>
                    <th scope="col" className={tableStyles.th}>Test cases</th>
                    <th scope="col" className={tableStyles.th}>Response</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                  {rows.map((row) => (
                    <tr key={row.responseId} data-testid="model-turn-row">
                      <td className={tableStyles.td}>
                        {/* No prefetch: a table of links would prefetch every row. */}
                        <Link prefetch={false} href={`/tasks/${encodeURIComponent(row.task)}${benchmarkQuery ? `?${benchmarkQuery}` : ""}`} className="hover:underline">
                          {row.task}
                        </Link>
                      </td>
                      <td className={tableStyles.tdNumber}>{row.round}</td>
                      {!domain ? <td className={tableStyles.td}>{row.domain}</td> : null}
                      {runs.length > 1 && !runId ? <td className={`${tableStyles.td} font-mono text-xs`}>{row.runLabel}</td> : null}
                      <td className={tableStyles.td}>
                        <PassVerdict valid={row.valid} failStep={row.failStep} />
                      </td>
                      <td className="min-w-64 max-w-md px-3 py-2 align-top">
                        {row.topDiagnosticCode ? (
                          <>
                            <code className="text-xs">{row.topDiagnosticCode}</code>
                            {row.topDiagnosticMessage ? <span className="block text-xs text-slate-600 dark:text-slate-400">{row.topDiagnosticMessage}</span> : null}
                          </>
                        ) : (
                          <span className="text-slate-500 dark:text-slate-400">none</span>
                        )}
                      </td>
                      <td className={tableStyles.td}>
                        <CaseChips cases={row.cases} />
                      </td>
                      <td className={tableStyles.td}>
                        <Link prefetch={false} href={`/responses/${encodeURIComponent(row.responseId)}`} className="text-brand-700 hover:underline dark:text-brand-400">
                          Open<span className="sr-only"> the response to {row.turn}</span>
                        </Link>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <div className="mt-3">
            <TableDownload table="modelTurns" rows={rows} name={[modelName, selection.benchmark?.name ?? "", domain ?? "", round ? `round-${round}` : "", "turns"]} label="these turns" />
          </div>
        </>
      )}
    </>
  );
}
