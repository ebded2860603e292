import type { Metadata } from "next";
import Link from "next/link";
import { DegradationChart } from "@/components/leaderboard/charts";
import { BenchmarkSelect } from "@/components/leaderboard/benchmark-select";
import { DriftAlerts } from "@/components/judges/drift-alerts";
import { PanelBuilder } from "@/components/judges/panel-builder";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { buttonStyles, cardStyles } from "@/components/ui/styles";
import { formatPercent } from "@/lib/format";
import { calibrationChart, driftChecks, judgeVersionLabel, MIN_ITEMS_FOR_DRIFT } from "@/lib/judge/calibration";
import { param } from "@/lib/leaderboard/view";
import { kappaView } from "@/lib/review/agreement-view";
import { STAGES } from "@/lib/review/filter";
import { isAllowed } from "@/lib/server/authz";
import { database } from "@/lib/server/db";
import { getCalibration, getPairwiseAgreement, listCalibrationQueues, listJudges } from "@/lib/server/data/judges";
import { selectBenchmark } from "@/lib/server/data/leaderboard";
import { requirePagePermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Judges" };

const rate = (num: number, den: number) => (den === 0 ? "—" : `${formatPercent(num / den)} (${num} of ${den})`);

export default async function JudgesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePagePermission("read", "/judges");
  const params = await searchParams;
  const db = database();
  const selection = await selectBenchmark(db, user, param(params, "benchmark") ?? null);
  const benchmark = selection.benchmark;
  const bq = selection.param ? `benchmark=${encodeURIComponent(selection.param)}` : "";
  const header = (
    <PageHeader
      title="Judges"
      description="Every judge that has judged this benchmark's runs, per stage: how much it covers, how it agrees with the recorded judge, the rule judge and every other judge, and how it agrees with human review labels over time."
      actions={
        <Link href={`/judges/compare${bq ? `?${bq}` : ""}`} className={buttonStyles.secondary}>
          Compare two judges
        </Link>
      }
    />
  );
  if (!benchmark) {
    return (
      <>
        {header}
        <EmptyState title="No benchmark imported" action={{ href: "/import", label: "Import a benchmark" }}>
          Judges appear once runs with judge verdicts have been imported.
        </EmptyState>
      </>
    );
  }
  const inventory = await listJudges(db, user, benchmark.id);
  const pairs = { pass: await getPairwiseAgreement(db, user, benchmark.id, "pass"), resolve: await getPairwiseAgreement(db, user, benchmark.id, "resolve") };
  const mayCalibrate = isAllowed(user, "manageQueues");
  const queues = mayCalibrate && user ? await listCalibrationQueues(db, user, benchmark.id) : [];
  const rawQueues = params.queue;
  const chosenQueues = (Array.isArray(rawQueues) ? rawQueues : rawQueues ? [rawQueues] : []).filter((id) => queues.some((queue) => queue.id === id));
  const calibration = mayCalibrate && user ? await getCalibration(db, user, benchmark.id, { queueIds: chosenQueues }) : null;
  const passJudges = inventory.judges.filter((judge) => judge.stage === "pass").map((judge) => judge.judge);
  const compareHref = (stage: string, a: string, b: string) => `/judges/compare?${new URLSearchParams({ ...(selection.param ? { benchmark: selection.param } : {}), stage, a, b })}`;
  const boardHref = (judge: string) => `/?${new URLSearchParams({ ...(selection.param ? { benchmark: selection.param } : {}), judge })}`;

  return (
    <>
      {header}
      <div className="mb-6">
        <BenchmarkSelect choices={selection.choices} value={selection.param} />
      </div>
      {inventory.judges.length === 0 ? (
        <EmptyState title="No judge verdicts yet" action={{ href: "/runs", label: "Runs" }}>
          Import recorded runs (they bring the recorded and rule judges) or judge a run with a model endpoint.
        </EmptyState>
      ) : (
        <div className="space-y-8">
          <section aria-labelledby="present" className={`${cardStyles} space-y-3`}>
            <h2 id="present" className="text-lg font-semibold">
              Judges present
            </h2>
            <p className="max-w-4xl text-sm text-slate-600 dark:text-slate-400">
              Coverage counts the items a judge has a verdict on: for the pass stage, the {inventory.passItems} turns that reach step 1_4 (this
              app&apos;s steps 1_1–1_3 pass); for the resolve stage, the {inventory.resolveItems} test cases the recorded runs sent to their judge.
              With several samples per item the judge&apos;s verdict is their majority (ties fail).
            </p>
            <DataTable
              caption={`Judges on ${benchmark.name}`}
              testId="judges-table"
              headers={["Judge", "Stage", "Model", "Coverage", "Runs", "Samples per item", "Malformed replies", "Last verdict", ""]}
              numeric={[4, 5]}
              rows={inventory.judges.map((judge) => [
                <span key="judge" className="font-mono">
                  {judge.judge}
                </span>,
                judge.stage,
                judge.model ?? "—",
                rate(judge.items, judge.stage === "pass" ? inventory.passItems : inventory.resolveItems),
                `${judge.runs} of ${inventory.runs}`,
                judge.samples,
                judge.shaped ? rate(judge.malformed, judge.shaped) : "—",
                judge.lastJudgedAt.slice(0, 10),
                <span key="links" className="flex flex-wrap gap-2">
                  {judge.stage === "pass" && judge.judge !== "recorded" ? (
                    <Link href={boardHref(judge.judge)} className="text-brand-700 hover:underline dark:text-brand-400">
                      Leaderboard
                    </Link>
                  ) : null}
                  {judge.judge !== "recorded" ? (
                    <Link href={compareHref(judge.stage, judge.judge, "recorded")} className="text-brand-700 hover:underline dark:text-brand-400">
                      vs recorded
                    </Link>
                  ) : null}
                </span>,
              ])}
            />
            {passJudges.length > 1 ? <PanelBuilder judges={passJudges.filter((judge) => judge !== "recorded")} benchmark={selection.param} /> : null}
          </section>

          <section aria-labelledby="pairs" className={`${cardStyles} space-y-3`}>
            <h2 id="pairs" className="text-lg font-semibold">
              Agreement between judges
            </h2>
            <p className="max-w-4xl text-sm text-slate-600 dark:text-slate-400">
              Each pair on the items both judged: raw agreement and Cohen&apos;s κ (agreement beyond chance; undefined when every verdict is the same).
            </p>
            {STAGES.map((stage) => (
              <DataTable
                key={stage}
                caption={`${stage} stage`}
                testId={`pairs-${stage}`}
                headers={["Judge A", "Judge B", "Items", "Raw agreement", "Cohen's κ", ""]}
                numeric={[2, 4]}
                rows={pairs[stage].map((pair) => {
                  const kappa = kappaView(pair.kappa);
                  return [
                    pair.a,
                    pair.b,
                    pair.n,
                    pair.agreement.rate === null ? "—" : `${formatPercent(pair.agreement.rate)} (${pair.agreement.num} of ${pair.agreement.den})`,
                    <span key="kappa" title={kappa.note}>
                      {kappa.text}
                    </span>,
                    <Link key="compare" href={compareHref(stage, pair.a, pair.b)} className="text-brand-700 hover:underline dark:text-brand-400">
                      Compare
                    </Link>,
                  ];
                })}
              />
            ))}
          </section>

          <section aria-labelledby="calibration" className={`${cardStyles} space-y-3`}>
            <h2 id="calibration" className="text-lg font-semibold">
              Calibration against human labels
            </h2>
            {calibration && queues.length > 0 ? (
              <form method="get" className="space-y-1" aria-label="Calibration set">
                {selection.param ? <input type="hidden" name="benchmark" value={selection.param} /> : null}
                <fieldset>
                  <legend className="text-sm font-medium">Calibration set: the blind labels of these review queues (none chosen: all)</legend>
                  <div className="mt-1 flex flex-wrap gap-4">
                    {queues.map((queue) => (
                      <label key={queue.id} className="flex items-center gap-2 text-sm">
                        <input type="checkbox" name="queue" value={queue.id} defaultChecked={chosenQueues.includes(queue.id)} /> {queue.name}
                        <span className="text-xs text-slate-500">({queue.mode})</span>
                      </label>
                    ))}
                  </div>
                </fieldset>
                <button type="submit" className={buttonStyles.secondary}>Use these queues</button>
              </form>
            ) : null}
            {!calibration ? (
              <p className="text-sm text-slate-600 dark:text-slate-400">Researchers and admins see each judge&apos;s agreement with the review queues&apos; votes here.</p>
            ) : (
              STAGES.map((stage) => {
                const result = calibration[stage];
                const chart = calibrationChart(result);
                return (
                  <div key={stage} className="space-y-2">
                    <h3 className="font-medium">{stage} stage</h3>
                    <DriftAlerts stage={stage} checks={driftChecks(result)} />
                    <p className="max-w-4xl text-sm text-slate-600 dark:text-slate-400">
                      The human label of an item is the majority of its annotators (each annotator&apos;s latest vote, pooled over queues; {result.tied}{" "}
                      tied item{result.tied === 1 ? "" : "s"} left out). Only votes cast blind count: a vote cast with the judge&apos;s verdict visible
                      (a reveal queue, or changed after the reveal) leans towards that verdict. Every judge is compared on every labelled item it judged,
                      by the week of the label and per prompt version, so a change in agreement over time shows as drift. An alert is raised when
                      a judge&apos;s latest week (at least {MIN_ITEMS_FOR_DRIFT} labelled items) agrees below the 95% Wilson interval of its earlier weeks pooled.
                    </p>
                    <p className="text-sm" data-testid={`calibration-${stage}-counts`}>
                      {result.labelled} labelled item{result.labelled === 1 ? "" : "s"} from {result.blindVotes} blind vote{result.blindVotes === 1 ? "" : "s"};{" "}
                      {result.visibleVotes} vote{result.visibleVotes === 1 ? "" : "s"} cast with the verdict visible left out.
                    </p>
                    {result.judges.length === 0 ? (
                      <p className="text-sm text-slate-500">
                        No blind human labels yet for this stage. <Link href="/review/new" className="underline">Create a blind review queue</Link>.
                      </p>
                    ) : (
                      <>
                        {chart.points.length > 1 ? <DegradationChart points={chart.points} models={chart.series} title={`Agreement with human labels per week, ${stage} stage`} /> : null}
                        <DataTable
                          caption={`Agreement with human labels, ${stage} stage (data table)`}
                          testId={`calibration-${stage}`}
                          headers={["Judge", "Week of label", "Items", "Raw agreement", "95% interval", "Cohen's κ"]}
                          numeric={[2]}
                          rows={result.judges.flatMap((judge) =>
                            [{ week: "all weeks", ...judge.overall }, ...judge.weeks].map((entry) => [
                              judgeVersionLabel(judge),
                              entry.week,
                              entry.n,
                              entry.rate === null ? "—" : `${formatPercent(entry.rate)} (${entry.agree} of ${entry.n})`,
                              entry.interval === null ? "—" : `${formatPercent(entry.interval.lower)}–${formatPercent(entry.interval.upper)}`,
                              kappaView(entry.kappa).text,
                            ]),
                          )}
                        />
                      </>
                    )}
                  </div>
                );
              })
            )}
          </section>
        </div>
      )}
    </>
  );
}
