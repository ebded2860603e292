import type { Metadata } from "next";
import Link from "next/link";
import { TableDownload } from "@/components/leaderboard/table-download";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { buttonStyles, cardStyles, inputStyles, labelStyles, tableStyles } from "@/components/ui/styles";
import { modelDiffHref } from "@/lib/diff/links";
import { formatPercent } from "@/lib/format";
import { compareRuns } from "@/lib/leaderboard/compare";
import { formatDelta } from "@/lib/leaderboard/describe";
import { param } from "@/lib/leaderboard/view";
import type { PairedComparison } from "@/lib/stats/paired";
import { database } from "@/lib/server/db";
import { getPairTurns, listCompareRuns, type CompareRunChoice } from "@/lib/server/data/drilldown";
import { drilldownJudge } from "@/lib/server/data/judged-by";
import { resolveJudgedBy } from "@/lib/server/data/judges";
import { JudgedByBar } from "@/components/judges/judged-by-bar";
import { selectBenchmark } from "@/lib/server/data/leaderboard";
import { nameBenchmarkInUrl } from "@/lib/server/benchmark-url";
import { requirePagePermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Compare models" };

function formatP(p: number): string {
  if (p < 0.0001) return "< 0.0001";
  return p.toFixed(4);
}

function StageResult({ title, result, nameA, nameB, unit, testId }: { title: string; result: PairedComparison; nameA: string; nameB: string; unit: string; testId: string }) {
  const { counts, mcnemar, bootstrap } = result;
  const significant = mcnemar.pValue < 0.05;
  return (
    <section aria-label={title} className={`${cardStyles} space-y-3`} data-testid={testId}>
      <h2 className="text-lg font-semibold">{title}</h2>
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-3">
        {[
          { name: nameA, rate: result.rateA },
          { name: nameB, rate: result.rateB },
        ].map(({ name, rate }, index) => (
          <div key={index}>
            <dt className="text-xs uppercase tracking-wide text-slate-500">{name}</dt>
            <dd className="text-xl font-semibold tabular-nums">{formatPercent(rate.rate)}</dd>
            <dd className="text-xs text-slate-500">
              {rate.num} of {rate.den} {unit}
            </dd>
          </div>
        ))}
        <div>
          <dt className="text-xs uppercase tracking-wide text-slate-500">Difference (A − B)</dt>
          <dd className="text-xl font-semibold tabular-nums">{formatDelta(result.difference)}</dd>
          <dd className="text-xs text-slate-500">
            {bootstrap
              ? `95% bootstrap interval ${formatDelta(bootstrap.lower)} to ${formatDelta(bootstrap.upper)} (${bootstrap.resamples} paired resamples, seed ${bootstrap.seed})`
              : "no shared items"}
          </dd>
        </div>
      </dl>
      <table className={`${tableStyles.table} max-w-md`}>
        <caption className="text-left text-xs text-slate-500">
          Paired outcomes on the same {unit} ({counts.n})
        </caption>
        <thead>
          <tr>
            <td />
            <th scope="col" className={tableStyles.th}>
              {nameB} passes
            </th>
            <th scope="col" className={tableStyles.th}>
              {nameB} fails
            </th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row" className={tableStyles.th}>
              {nameA} passes
            </th>
            <td className={tableStyles.tdNumber}>{counts.bothPass}</td>
            <td className={`${tableStyles.tdNumber} font-semibold`}>{counts.aOnly}</td>
          </tr>
          <tr>
            <th scope="row" className={tableStyles.th}>
              {nameA} fails
            </th>
            <td className={`${tableStyles.tdNumber} font-semibold`}>{counts.bOnly}</td>
            <td className={tableStyles.tdNumber}>{counts.bothFail}</td>
          </tr>
        </tbody>
      </table>
      <p className="text-sm" data-testid={`${testId}-mcnemar`}>
        <strong>McNemar&apos;s test</strong> ({mcnemar.method === "exact-binomial" ? "exact binomial" : "chi-square with continuity correction"}): b = {mcnemar.b}, c = {mcnemar.c}
        {mcnemar.method === "chi-square-continuity" ? `, χ² = ${mcnemar.statistic.toFixed(3)}` : ""}, p = {formatP(mcnemar.pValue)}.{" "}
        {mcnemar.b + mcnemar.c === 0
          ? "The two models never disagree here."
          : significant
            ? "The two models differ at the 5% level."
            : "No significant difference at the 5% level."}
        {mcnemar.method === "exact-binomial" ? null : <> Exact binomial p = {formatP(result.exact.pValue)}.</>}
      </p>
    </section>
  );
}

/** One side's pass verdict on a turn, in words, opening its response. */
function PassCell({ responseId, passed }: { responseId: string; passed: boolean }) {
  return (
    <td className={tableStyles.td}>
      <Link prefetch={false} href={`/responses/${encodeURIComponent(responseId)}`} className="hover:underline">
        {passed ? "✓ pass" : "✗ fail"}
      </Link>
    </td>
  );
}

/** The leaderboard's rows: a model under one configuration each (the official recorded runs by the model's name alone). */
function ModelSelect({ name, label, runs, value }: { name: string; label: string; runs: CompareRunChoice[]; value: string }) {
  const series = [...new Map(runs.map((run) => [run.series, run])).values()];
  return (
    <label className={labelStyles}>
      {label}
      <select name={name} defaultValue={value} className={`${inputStyles} min-w-56 max-w-md`}>
        <option value="">choose a model</option>
        {!series.some((run) => run.series === value) && runs.some((run) => run.model === value) ? <option value={value}>{runs.find((run) => run.model === value)?.displayName} (any configuration)</option> : null}
        {series.map((run) => (
          <option key={run.series} value={run.series}>
            {run.displayName}
            {run.displayName !== run.model ? ` (${run.model})` : ""} · {run.configuration}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A row's runs: the runs of that series, or every run of the model a link names by its name alone. */
function runsOf(runs: readonly CompareRunChoice[], choice: string): CompareRunChoice[] {
  const series = runs.filter((run) => run.series === choice);
  return series.length > 0 ? series : runs.filter((run) => run.model === choice);
}

/** Which run of the row is compared (shown even for one run, so the page always says which). */
function RunSelect({ name, label, runs, value }: { name: string; label: string; runs: CompareRunChoice[]; value: string }) {
  if (runs.length === 0) return null;
  return (
    <label className={labelStyles}>
      {label}
      <select name={name} defaultValue={value} className={inputStyles}>
        {runs.map((run) => (
          <option key={run.id} value={run.id}>
            {run.label}
            {run.status === "in-progress" ? " (in progress)" : ""}
            {runs.some((other) => other.series !== run.series) ? ` · ${run.configuration}` : ""}
          </option>
        ))}
      </select>
    </label>
  );
}

export default async function ComparePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePagePermission("read", "/compare");
  const params = await searchParams;
  const db = database();
  const selection = await selectBenchmark(db, user, param(params, "benchmark") ?? null);
  nameBenchmarkInUrl("/compare", params, selection.param);
  const a = param(params, "a") ?? "";
  const b = param(params, "b") ?? "";
  const judgedBy = await resolveJudgedBy(db, user, selection.benchmark?.id ?? null, param(params, "judge"));
  const runs = selection.benchmark ? await listCompareRuns(db, user, selection.benchmark.id, judgedBy.choice.kind === "recorded" ? undefined : judgedBy.description) : [];
  const runsA = runsOf(runs, a);
  const runsB = runsOf(runs, b);
  const runA = runsA.find((run) => run.id === param(params, "runA")) ?? runsA[0] ?? null;
  // One model on both sides (two modes of it, say): B defaults to another of its runs than A's.
  const runB = runsB.find((run) => run.id === param(params, "runB")) ?? (runsB.some((run) => run.id === runA?.id) ? runsB.find((run) => run.id !== runA?.id) : undefined) ?? runsB[0] ?? null;
  const underJudge = selection.benchmark ? await drilldownJudge(db, user, selection.benchmark.id, judgedBy.choice) : null;
  const bq = [selection.param ? `benchmark=${encodeURIComponent(selection.param)}` : "", judgedBy.choice.param ? `judge=${encodeURIComponent(judgedBy.choice.param)}` : ""].filter(Boolean).join("&");
  // Under a chosen judge both runs must be judged by it: an unjudged run is reported, never compared as all-fail.
  const judgedPair = !underJudge || (runA !== null && runB !== null && underJudge.judge.runs.has(runA.id) && underJudge.judge.runs.has(runB.id));

  let comparison: ReturnType<typeof compareRuns> | null = null;
  if (runA && runB && judgedPair) comparison = compareRuns(await getPairTurns(db, user, runA.id, underJudge?.judge), await getPairTurns(db, user, runB.id, underJudge?.judge));
  const nameA = runA ? `${runA.displayName}${runA.id === runB?.id ? " (A)" : ""}` : "A";
  const nameB = runB ? `${runB.displayName}${runA?.id === runB.id ? " (B)" : ""}` : "B";

  return (
    <>
      <PageHeader
        title="Compare two models"
        description="Two models on the same turns and test cases: McNemar's test on the turns (or cases) where exactly one of them succeeds, and a paired bootstrap interval of the difference in rates."
        actions={
          <Link href={`/${bq ? `?${bq}` : ""}`} className={buttonStyles.secondary}>
            Leaderboard
          </Link>
        }
      />
      {runs.length === 0 ? (
        <EmptyState title="No runs to compare" action={{ href: "/import", label: "Import runs" }}>
          Import runs of at least two models to compare them.
        </EmptyState>
      ) : (
        <>
          <JudgedByBar
            judgedBy={judgedBy}
            judging={underJudge ? underJudge.judging.filter((run) => run.runId === runA?.id || run.runId === runB?.id) : null}
            benchmarkQuery={selection.param ? `?benchmark=${encodeURIComponent(selection.param)}` : ""}
          />
          <form method="get" action="/compare" className="mb-6 flex flex-wrap items-end gap-4" aria-label="Choose the models">
            {selection.param ? <input type="hidden" name="benchmark" value={selection.param} /> : null}
            {judgedBy.choice.param ? <input type="hidden" name="judge" value={judgedBy.choice.param} /> : null}
            <ModelSelect name="a" label="Model A" runs={runs} value={a} />
            <RunSelect name="runA" label="Run of A" runs={runsA} value={runA?.id ?? ""} />
            <ModelSelect name="b" label="Model B" runs={runs} value={b} />
            <RunSelect name="runB" label="Run of B" runs={runsB} value={runB?.id ?? ""} />
            <button type="submit" className={buttonStyles.primary}>
              Compare
            </button>
            <p className="w-full text-xs text-slate-500">
              Benchmark {selection.benchmark?.name}. A model with several runs is compared through one run at a time (the first imported unless you pick
              another), so every item is paired once. To compare two runs of one model (say agentic against error feedback), choose it as both A and B
              and pick the two runs.
            </p>
          </form>

          {!a || !b ? (
            <EmptyState title="Choose two models">Pick model A and model B above to compare them on the turns both answered.</EmptyState>
          ) : !runA || !runB ? (
            <EmptyState title="Model not found">{!runA ? a : b} has no run on this benchmark.</EmptyState>
          ) : comparison && !comparison.ok ? (
            <EmptyState title="Nothing to compare">{comparison.issues.map((found) => found.message).join("; ")}</EmptyState>
          ) : comparison ? (
            <div className="space-y-6">
              <p className="text-sm text-slate-600 dark:text-slate-400">
                A ={" "}
                <Link className="font-medium hover:underline" href={`/models/${encodeURIComponent(runA.series)}${bq ? `?${bq}` : ""}`}>
                  {runA.displayName}
                </Link>{" "}
                (run {runA.label}; {runA.configuration}), B ={" "}
                <Link className="font-medium hover:underline" href={`/models/${encodeURIComponent(runB.series)}${bq ? `?${bq}` : ""}`}>
                  {runB.displayName}
                </Link>{" "}
                (run {runB.label}; {runB.configuration}). {comparison.value.pass.counts.n} shared turns
                {comparison.value.onlyA.length || comparison.value.onlyB.length
                  ? `; left out because only one run answered them: ${comparison.value.onlyA.length} of A's, ${comparison.value.onlyB.length} of B's`
                  : ""}
                .
              </p>
              <div className="grid gap-6 lg:grid-cols-2">
                <StageResult title="Pass stage (turns)" result={comparison.value.pass} nameA={nameA} nameB={nameB} unit="turns" testId="compare-pass" />
                {comparison.value.resolve ? (
                  <StageResult title="Resolve stage (test cases)" result={comparison.value.resolve} nameA={nameA} nameB={nameB} unit="test cases" testId="compare-resolve" />
                ) : (
                  <section aria-label="Resolve stage (test cases)" className={cardStyles}>
                    <h2 className="text-lg font-semibold">Resolve stage (test cases)</h2>
                    <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">At least one of the runs has no resolve-stage results (raw model output), so resolve rates cannot be compared.</p>
                  </section>
                )}
              </div>

              {runA.status === "in-progress" || runB.status === "in-progress" ? (
                <p className="text-sm text-sky-800 dark:text-sky-300" data-testid="compare-in-progress">
                  {runA.status === "in-progress" && runB.status === "in-progress" ? "Both runs are" : `Run ${runA.status === "in-progress" ? "A" : "B"} is`} still being generated (in
                  progress): the comparison covers the turns stored so far.
                </p>
              ) : null}

              <details className="space-y-2" data-testid="paired-turns">
                <summary className="cursor-pointer text-lg font-semibold">Every shared turn ({comparison.value.turns.length}): pass in A and in B</summary>
                <div className={`${tableStyles.wrapper} max-h-[32rem] overflow-y-auto`}>
                  <table className={tableStyles.table}>
                    <caption className="sr-only">Each turn both runs answered, with the pass verdict of A and of B</caption>
                    <thead>
                      <tr>
                        <th scope="col" className={tableStyles.th}>Turn</th>
                        <th scope="col" className={tableStyles.th}>{nameA}</th>
                        <th scope="col" className={tableStyles.th}>{nameB}</th>
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                      {comparison.value.turns.map((turn) => (
                        <tr key={turn.turn} className={turn.passA !== turn.passB ? "bg-amber-50 dark:bg-amber-950/30" : undefined}>
                          <td className={tableStyles.td}>
                            {turn.task} round {turn.round}
                            {turn.passA !== turn.passB ? <span className="ml-2 text-xs text-amber-800 dark:text-amber-300">differs</span> : null}
                          </td>
                          <PassCell responseId={turn.responseA} passed={turn.passA} />
                          <PassCell responseId={turn.responseB} passed={turn.passB} />
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </details>

              <section aria-labelledby="discordant-heading" className="space-y-3">
                <h2 id="discordant-heading" className="text-lg font-semibold">
                  Turns where exactly one passes ({comparison.value.discordant.length})
                </h2>
                {comparison.value.discordant.length === 0 ? (
                  <p className="text-sm text-slate-600 dark:text-slate-400">The two models pass and fail the same turns.</p>
                ) : (
                  <div className={tableStyles.wrapper}>
                    <table className={tableStyles.table} data-testid="discordant-turns">
                      <caption className="sr-only">Turns where exactly one of the two models passes, with links to both responses</caption>
                      <thead>
                        <tr>
                          <th scope="col" className={tableStyles.th}>Turn</th>
                          <th scope="col" className={tableStyles.th}>Domain</th>
                          <th scope="col" className={tableStyles.th}>Passes</th>
                          <th scope="col" className={tableStyles.th}>Response of A</th>
                          <th scope="col" className={tableStyles.th}>Response of B</th>
                          <th scope="col" className={tableStyles.th}>Diff</th>
                        </tr>
                      </thead>
                      <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                        {comparison.value.discordant.map((turn) => (
                          <tr key={turn.turn}>
                            <td className={tableStyles.td}>
                              <Link prefetch={false} href={`/tasks/${encodeURIComponent(turn.task)}${bq ? `?${bq}` : ""}`} className="hover:underline">
                                {turn.task}
                              </Link>{" "}
                              round {turn.round}
                            </td>
                            <td className={tableStyles.td}>{turn.domain}</td>
                            <td className={tableStyles.td}>
                              <span aria-hidden="true">{turn.passes === "a" ? "A ✓ · B ✗" : "A ✗ · B ✓"}</span>
                              <span className="sr-only">{turn.passes === "a" ? `${nameA} passes, ${nameB} fails` : `${nameB} passes, ${nameA} fails`}</span>
                            </td>
                            <td className={tableStyles.td}>
                              <Link prefetch={false} href={`/responses/${encodeURIComponent(turn.responseA)}`} className="text-brand-700 hover:underline dark:text-brand-400">
                                {nameA}
                                {turn.casesA !== null ? ` (${turn.casesA}/3 cases)` : ""}
                              </Link>
                            </td>
                            <td className={tableStyles.td}>
                              <Link prefetch={false} href={`/responses/${encodeURIComponent(turn.responseB)}`} className="text-brand-700 hover:underline dark:text-brand-400">
                                {nameB}
                                {turn.casesB !== null ? ` (${turn.casesB}/3 cases)` : ""}
                              </Link>
                            </td>
                            <td className={tableStyles.td}>
                              <Link prefetch={false} href={modelDiffHref({ turn: turn.turn, a: runA.id, b: runB.id })} className="text-brand-700 hover:underline dark:text-brand-400" aria-label={`Model diff of ${turn.task} round ${turn.round}`}>
                                Model diff
                              </Link>
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
                <TableDownload table="discordant" rows={comparison.value.discordant} name={["compare", runA.model, runB.model]} label="the turns where exactly one passes" />
              </section>
            </div>
          ) : null}
        </>
      )}
    </>
  );
}
