import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { JudgedByBar } from "@/components/judges/judged-by-bar";
import { BenchmarkSelect } from "@/components/leaderboard/benchmark-select";
import { DegradationChart, DomainBarsChart, PassResolveScatter, StackedShareChart } from "@/components/leaderboard/charts";
import { TableDownload } from "@/components/leaderboard/table-download";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { buttonStyles, cardStyles, labelStyles } from "@/components/ui/styles";
import { formatPercent, formatRatio } from "@/lib/format";
import {
  FAIL_STEPS,
  FAILURE_CATEGORIES,
  categoryPoints,
  chooseChartModels,
  degradation,
  domainPoints,
  domainRates,
  failStepDistribution,
  failStepPoints,
  failureCategories,
  passResolveScatter,
} from "@/lib/leaderboard/charts";
import { seriesLabel } from "@/lib/leaderboard/configuration";
import { param } from "@/lib/leaderboard/view";
import { database } from "@/lib/server/db";
import { hrefWithJudge, withJudge } from "@/lib/judge/choice";
import { resolveJudgedBy } from "@/lib/server/data/judges";
import { getFailureCounts, getMeasuredRates, selectBenchmark } from "@/lib/server/data/leaderboard";
import { nameBenchmarkInUrl } from "@/lib/server/benchmark-url";
import { requirePagePermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Charts" };

function Figure({ id, title, description, children, table, download }: { id: string; title: string; description: ReactNode; children: ReactNode; table: ReactNode; download: ReactNode }) {
  return (
    <section aria-labelledby={id} className={`${cardStyles} space-y-3`}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <div className="max-w-4xl text-sm text-slate-600 dark:text-slate-400">{description}</div>
      {children}
      <details>
        <summary className="cursor-pointer text-sm font-medium">Data table</summary>
        <div className="mt-2">{table}</div>
      </details>
      {download}
    </section>
  );
}

const count = (num: number | null, den: number | null) => (num === null || den === null ? "—" : `${num} / ${den}`);

export default async function ChartsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePagePermission("read", "/charts");
  const params = await searchParams;
  const db = database();
  const selection = await selectBenchmark(db, user, param(params, "benchmark") ?? null);
  const benchmark = selection.benchmark;
  nameBenchmarkInUrl("/charts", params, selection.param);
  const benchmarkQuery = selection.param ? `?benchmark=${encodeURIComponent(selection.param)}` : "";
  const judgedBy = await resolveJudgedBy(db, user, benchmark?.id ?? null, param(params, "judge"));
  const query = withJudge(benchmarkQuery, judgedBy.choice);
  const header = (
    <PageHeader
      title="Charts"
      description="Degradation across rounds, where workflows fail, rates per domain and pass against resolve, measured from the imported runs."
      actions={
        <Link href={`/${query}`} className={buttonStyles.secondary}>
          Back to the leaderboard
        </Link>
      }
    />
  );
  if (!benchmark || benchmark.runCount === 0) {
    return (
      <>
        {header}
        <EmptyState title="No runs to chart" action={{ href: "/import", label: "Import runs" }}>
          Charts appear once runs have been imported for a benchmark.
        </EmptyState>
      </>
    );
  }

  const { counts, rates } = await getMeasuredRates(db, user, benchmark.id, judgedBy.choice);
  const failures = await getFailureCounts(db, user, counts.runs, judgedBy.choice);
  const requested = ([] as string[]).concat(params.models ?? []).flatMap((value) => value.split(",")).filter(Boolean);
  // Eight lines by default: more pile up; the picker draws any others, and every table lists all models.
  // Rows as the leaderboard has them: a model under one configuration, named with it where a model has several.
  const series = counts.models.map((info) => ({ ...info, displayName: seriesLabel(info) }));
  const models = chooseChartModels(rates, series, requested, 8);
  const rounds = degradation(rates, models, series, counts.roundTurns);
  const steps = failStepDistribution(failures.steps, series);
  const categories = failureCategories(failures.categories, series);
  const domains = domainRates(rates, series);
  const scatter = passResolveScatter(rates, series);
  const allModels = rates.filter((row) => row.scope === "overall").map((row) => series.find((model) => model.name === row.model) ?? { name: row.model, displayName: row.model });
  const name = ["charts", benchmark.name];
  const round4 = rounds.omitted.map((entry) => `round ${entry.round} (${entry.turns} turn${entry.turns === 1 ? "" : "s"} per run)`).join(", ");

  return (
    <>
      {header}
      <JudgedByBar judgedBy={judgedBy} judging={counts.judging ?? null} benchmarkQuery={benchmarkQuery} />
      <div className="mb-6 flex flex-wrap items-end gap-4">
        <BenchmarkSelect choices={selection.choices} value={selection.param} />
        <form method="get" action="/charts" className="flex flex-wrap items-end gap-2">
          <input type="hidden" name="benchmark" value={selection.param} />
          {judgedBy.choice.param ? <input type="hidden" name="judge" value={judgedBy.choice.param} /> : null}
          <fieldset className="min-w-64">
            <legend className={labelStyles}>Models in the line and bar charts</legend>
            <div className="mt-1 grid max-h-40 grid-cols-1 gap-x-4 gap-y-1 overflow-y-auto rounded-md border border-slate-300 bg-white p-2 text-sm sm:grid-cols-2 dark:border-slate-600 dark:bg-slate-900" data-testid="chart-models">
              {allModels.map((model) => (
                <label key={model.name} className="flex items-center gap-2">
                  <input type="checkbox" name="models" value={model.name} defaultChecked={models.some((chosen) => chosen.name === model.name)} className="h-4 w-4" />
                  {model.displayName}
                </label>
              ))}
            </div>
          </fieldset>
          <button type="submit" className={buttonStyles.secondary}>
            Show
          </button>
        </form>
        <p className="text-sm text-slate-500">
          {models.length} of {allModels.length} models drawn{allModels.length > models.length ? " (the best by resolve rate unless you pick)" : ""}; tables list all.
        </p>
      </div>

      <div className="space-y-8">
        <Figure
          id="degradation"
          title="Degradation across rounds"
          description={
            <>
              Pass and resolve rate of each model in rounds 1–3 of the multi-turn tasks. The denominator changes from round to round: tasks with fewer
              rounds drop out ({rounds.charted.map((entry) => `round ${entry.round}: ${entry.turns} turns`).join(", ")} per run), so a rise in a later
              round can come from the smaller set of tasks rather than from better answers.
              {round4 ? ` Not charted: ${round4}, too few turns for a rate; they count in the overall and per-domain figures and are in the table.` : ""}
            </>
          }
          table={
            <DataTable
              caption="Pass and resolve counts per model and round"
              testId="rounds-table"
              headers={["Model", "Round", "Charted", "Pass", "Pass rate", "Resolve", "Resolve rate"]}
              numeric={[1, 3, 4, 5, 6]}
              rows={rounds.table.map((row) => [row.displayName, row.round, row.charted ? "yes" : "no (noted)", count(row.passNum, row.passDen), formatPercent(row.passRate), count(row.resolveNum, row.resolveDen), formatPercent(row.resolveRate)])}
            />
          }
          download={<TableDownload table="rounds" rows={rounds.table} name={[...name, "rounds"]} label="the rounds table" />}
        >
          <div className="grid gap-6 lg:grid-cols-2">
            <div>
              <h3 className="text-sm font-medium">Pass rate by round</h3>
              <DegradationChart points={rounds.pass} models={models} title="Pass rate by round" />
            </div>
            <div>
              <h3 className="text-sm font-medium">Resolve rate by round</h3>
              <DegradationChart points={rounds.resolve} models={models} title="Resolve rate by round" />
            </div>
          </div>
        </Figure>

        <Figure
          id="fail-steps"
          title="Where the pass stage fails"
          description="Share of each model's turns that fail at each step of the pass stage: step_1_1 format and tags, step_1_2 conversion to a Dify workflow, step_1_3 input and output variable names, step_1_4 the node-consistency judge. The table also gives the chance to fail at a step among the turns that reached it."
          table={
            <DataTable
              caption="Turns per model and fail step"
              testId="fail-steps-table"
              headers={["Model", "Turns", "Passed", ...FAIL_STEPS, "Other", ...FAIL_STEPS.map((step) => `${step} given reached`)]}
              numeric={[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]}
              rows={steps.map((row) => [
                row.displayName,
                row.turns,
                row.passed,
                ...FAIL_STEPS.map((step) => `${row.steps[step] ?? 0} (${formatRatio(row.steps[step] ?? 0, row.turns, 1)})`),
                row.other,
                ...FAIL_STEPS.map((step) => formatPercent(row.conditional[step], 1)),
              ])}
            />
          }
          download={<TableDownload table="failSteps" rows={steps} name={[...name, "fail-steps"]} label="the fail-step table" />}
        >
          <StackedShareChart points={failStepPoints(steps)} keys={FAIL_STEPS} title="Share of turns failing at each pass-stage step" />
        </Figure>

        <Figure
          id="categories"
          title="Failures by diagnostic category"
          description="Failed turns of each model by the category of the first diagnostic this app's checks report: format (syntax and parsing), graph (structure), semantics (node rules and references) or consistency (with the request or between parts of the response). “none”: the recorded judge failed the turn but our checks found nothing."
          table={
            <DataTable
              caption="Failed turns per model and diagnostic category"
              testId="categories-table"
              headers={["Model", "Failed turns", ...FAILURE_CATEGORIES]}
              numeric={[1, 2, 3, 4, 5, 6]}
              rows={categories.map((row) => [row.displayName, row.failed, ...FAILURE_CATEGORIES.map((category) => row.categories[category] ?? 0)])}
            />
          }
          download={<TableDownload table="categories" rows={categories} name={[...name, "categories"]} label="the category table" />}
        >
          <StackedShareChart points={categoryPoints(categories)} keys={FAILURE_CATEGORIES} title="Failed turns by diagnostic category" />
        </Figure>

        <Figure
          id="domains"
          title="Rates per domain"
          description="Pass and resolve rate of each model in each of the benchmark's domains."
          table={
            <DataTable
              caption="Pass and resolve counts per model and domain"
              testId="domains-table"
              headers={["Model", "Domain", "Pass", "Pass rate", "Resolve", "Resolve rate"]}
              numeric={[2, 3, 4, 5]}
              rows={domains.map((row) => [
                <Link prefetch={false} key="model" className="hover:underline" href={hrefWithJudge(`/models/${encodeURIComponent(row.model)}?benchmark=${encodeURIComponent(selection.param)}&domain=${encodeURIComponent(row.domain)}`, judgedBy.choice)}>
                  {row.displayName}
                </Link>,
                row.domain,
                count(row.passNum, row.passDen),
                formatPercent(row.passRate),
                count(row.resolveNum, row.resolveDen),
                formatPercent(row.resolveRate),
              ])}
            />
          }
          download={<TableDownload table="domains" rows={domains} name={[...name, "domains"]} label="the domain table" />}
        >
          <div className="grid gap-6">
            <div>
              <h3 className="text-sm font-medium">Pass rate per domain</h3>
              <DomainBarsChart points={domainPoints(domains, models, "passRate")} models={models} title="Pass rate per domain" />
            </div>
            <div>
              <h3 className="text-sm font-medium">Resolve rate per domain</h3>
              <DomainBarsChart points={domainPoints(domains, models, "resolveRate")} models={models} title="Resolve rate per domain" />
            </div>
          </div>
        </Figure>

        <Figure
          id="scatter"
          title="Pass rate against resolve rate"
          description="Each point is a model's overall pass and resolve rate. The gap is how much a syntactically valid workflow overstates solved cases. Models without resolve data are left out."
          table={
            <DataTable
              caption="Overall pass and resolve per model"
              testId="scatter-table"
              headers={["Model", "Pass", "Pass rate", "Resolve", "Resolve rate", "Gap"]}
              numeric={[1, 2, 3, 4, 5]}
              rows={scatter.map((row) => [row.displayName, count(row.passNum, row.passDen), formatPercent(row.passRate), count(row.resolveNum, row.resolveDen), formatPercent(row.resolveRate), `${(row.gap * 100).toFixed(2)} pp`])}
            />
          }
          download={<TableDownload table="scatter" rows={scatter} name={[...name, "pass-vs-resolve"]} label="the pass against resolve table" />}
        >
          <PassResolveScatter rows={scatter} title="Pass rate against resolve rate" />
        </Figure>
      </div>
    </>
  );
}
