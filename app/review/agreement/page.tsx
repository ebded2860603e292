import type { Metadata } from "next";
import Link from "next/link";
import { AgreementTable, KappaNotes } from "@/components/review/agreement-table";
import { ConfusionMatrix } from "@/components/review/confusion-matrix";
import { PaperReference } from "@/components/review/paper-reference";
import { linkClass } from "@/components/review/styles";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { buttonStyles, cardStyles, inputStyles, labelStyles, tableStyles } from "@/components/ui/styles";
import { benchmarkParam } from "@/lib/leaderboard/benchmarks";
import { param } from "@/lib/leaderboard/view";
import { selectBenchmark } from "@/lib/server/data/leaderboard";
import { formatPercent } from "@/lib/format";
import { annotationExportHref } from "@/lib/review/export";
import { database } from "@/lib/server/db";
import { getAgreementOverview } from "@/lib/server/data/review";
import { requireSignedInPermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Agreement overview" };

export default async function AgreementOverviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireSignedInPermission("manageQueues", "/review/agreement");
  const params = await searchParams;
  const db = database();
  const requested = param(params, "benchmark") ?? null;
  const allBenchmarks = requested === "all";
  const selection = await selectBenchmark(db, user, allBenchmarks ? null : requested);
  const stageParam = param(params, "stage");
  const stage = stageParam === "pass" || stageParam === "resolve" ? stageParam : null;
  const overview = await getAgreementOverview(db, user, { benchmarkId: allBenchmarks ? null : (selection.benchmark?.id ?? null), stage });
  const voted = overview.stages.filter((stage) => stage.report.rows[0]!.items > 0 || stage.visibleVotesLeftOut > 0);
  return (
    <>
      <PageHeader
        title="Agreement overview"
        description="How often annotators agree with the judges, pooled over every queue (a verdict reviewed in several queues counts once, with each annotator's latest vote), and how the judges agree with each other."
        actions={
          <>
            <a href={annotationExportHref("csv")} className={buttonStyles.secondary}>
              Export annotations (CSV)
            </a>
            <Link href="/review" className={buttonStyles.secondary}>
              Queues
            </Link>
          </>
        }
      />
      <form method="get" action="/review/agreement" className="mb-6 flex flex-wrap items-end gap-4" aria-label="Which reviews to pool">
        <label className={labelStyles}>
          Benchmark
          <select name="benchmark" defaultValue={allBenchmarks ? "all" : selection.param} className={inputStyles}>
            {selection.choices.map((choice) => (
              <option key={choice.id} value={benchmarkParam(choice, selection.choices)}>
                {choice.name}
              </option>
            ))}
            <option value="all">all benchmarks (pooled)</option>
          </select>
        </label>
        <label className={labelStyles}>
          Stage
          <select name="stage" defaultValue={stage ?? ""} className={inputStyles}>
            <option value="">both stages</option>
            <option value="pass">pass</option>
            <option value="resolve">resolve</option>
          </select>
        </label>
        <button type="submit" className={buttonStyles.secondary}>
          Show
        </button>
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="agreement-scope">
          {allBenchmarks ? "Every benchmark pooled" : `Benchmark ${selection.benchmark?.name ?? "—"}`} · {stage ? `${stage} stage` : "both stages"}. Only complete items (every vote their queue asks for) count.
        </p>
      </form>
      <div className="space-y-8">
        <section aria-labelledby="by-stage" className="space-y-4">
          <h2 id="by-stage" className="text-lg font-medium">
            Judges vs annotators, by stage
          </h2>
          {voted.length === 0 ? (
            <>
              <PaperReference />
              <EmptyState title="No votes yet" action={{ href: "/review/new", label: "Create a queue" }}>
                Create a review queue and assign annotators; the pooled figures appear with the first votes.
              </EmptyState>
            </>
          ) : (
            voted.map((stage) => (
              <div key={stage.stage} className="space-y-2">
                <h3 className="font-medium">{stage.stage === "pass" ? "Pass stage" : stage.stage === "resolve" ? "Resolve stage" : stage.stage}</h3>
                <PaperReference stage={stage.stage} />
                <AgreementTable rows={stage.report.rows} caption={`${stage.stage} stage agreement`} />
                <KappaNotes row={stage.report.rows[0]!} />
                <p className="text-sm text-slate-600 dark:text-slate-400" data-testid={`blind-only-${stage.stage}`}>
                  Blind labels only: {stage.visibleVotesLeftOut} vote{stage.visibleVotesLeftOut === 1 ? "" : "s"} cast with the judge&apos;s verdict visible
                  {stage.visibleVotesLeftOut === 1 ? " is" : " are"} left out.
                </p>
              </div>
            ))
          )}
        </section>

        {overview.queues.length ? (
          <section aria-labelledby="by-queue" className="space-y-2">
            <h2 id="by-queue" className="text-lg font-medium">
              By queue
            </h2>
            <div className={tableStyles.wrapper}>
              <table className={tableStyles.table}>
                <caption className="sr-only">Agreement by queue</caption>
                <thead>
                  <tr>
                    <th scope="col" className={tableStyles.th}>Queue</th>
                    <th scope="col" className={tableStyles.th}>Stage</th>
                    <th scope="col" className={tableStyles.th}>Items voted</th>
                    <th scope="col" className={tableStyles.th}>Strict unanimity</th>
                    <th scope="col" className={tableStyles.th}>Raw agreement</th>
                    <th scope="col" className={tableStyles.th}>κ judge vs majority</th>
                    <th scope="col" className={tableStyles.th}>Fleiss&apos; κ</th>
                    <th scope="col" className={tableStyles.th}>Disagreements</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                  {overview.queues.map(({ queue, report }) => {
                    const all = report.rows[0]!;
                    return (
                      <tr key={queue.id}>
                        <td className={`${tableStyles.td} whitespace-normal`}>
                          <Link href={`/review/${queue.id}/agreement`} className={linkClass}>
                            {queue.name}
                          </Link>
                        </td>
                        <td className={tableStyles.td}>{queue.stage}</td>
                        <td className={tableStyles.tdNumber}>
                          {all.items} / {queue.progress.items}
                        </td>
                        <td className={tableStyles.tdNumber}>{formatPercent(all.strict.rate)}</td>
                        <td className={tableStyles.tdNumber}>{formatPercent(all.raw.rate)}</td>
                        <td className={tableStyles.tdNumber} title={all.judgeVsMajority.note}>
                          {all.judgeVsMajority.text}
                        </td>
                        <td className={tableStyles.tdNumber} title={all.annotators.note}>
                          {all.annotators.text}
                        </td>
                        <td className={tableStyles.tdNumber}>{report.disagreements.length}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          </section>
        ) : null}

        <section aria-labelledby="judge-vs-judge" className="space-y-4">
          <h2 id="judge-vs-judge" className="text-lg font-medium">
            Judge vs judge
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Every pair of judges that judged the same items (for example the recorded LLM judge and this app&apos;s rule judge on the pass stage), over exactly those items; no annotators
            involved.
          </p>
          {overview.judgePairs.every((entry) => entry.comparisons.length === 0) ? (
            <EmptyState title="No items judged by two judges">Import recorded runs: their recorded pass-stage verdicts are compared with the rule judge.</EmptyState>
          ) : (
            overview.judgePairs
              .filter((entry) => entry.comparisons.length > 0)
              .map((entry) => (
                <div key={entry.benchmark.id} className="space-y-4">
                  <h3 className="font-medium">{entry.benchmark.name}</h3>
                  {entry.comparisons.map((comparison) => (
                    <div key={`${comparison.stage}-${comparison.a}-${comparison.b}`} className={`${cardStyles} space-y-3`} data-testid="judge-pair">
                      <p className="text-sm">
                        <strong>
                          {comparison.stage} stage: {comparison.a} vs {comparison.b}
                        </strong>{" "}
                        · {comparison.n} items · agreement <strong>{formatPercent(comparison.agreement.rate)}</strong> ({comparison.agreement.num}/{comparison.agreement.den}) · Cohen&apos;s κ{" "}
                        <span title={comparison.kappa.note}>{comparison.kappa.text}</span>
                      </p>
                      <ConfusionMatrix view={comparison.confusion} caption={`${comparison.a} (rows) against ${comparison.b} (columns)`} />
                      <details>
                        <summary className="cursor-pointer text-sm">By model</summary>
                        <table className={`${tableStyles.table} mt-2`}>
                          <caption className="sr-only">Judge agreement by model</caption>
                          <thead>
                            <tr>
                              <th scope="col" className={tableStyles.th}>Model</th>
                              <th scope="col" className={tableStyles.th}>Items</th>
                              <th scope="col" className={tableStyles.th}>Agreement</th>
                              <th scope="col" className={tableStyles.th}>κ</th>
                            </tr>
                          </thead>
                          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                            {comparison.byModel.map((row) => (
                              <tr key={row.model}>
                                <td className={tableStyles.td}>{row.model}</td>
                                <td className={tableStyles.tdNumber}>{row.n}</td>
                                <td className={tableStyles.tdNumber}>
                                  {formatPercent(row.agreement.rate)} ({row.agreement.num}/{row.agreement.den})
                                </td>
                                <td className={tableStyles.tdNumber} title={row.kappa.note}>
                                  {row.kappa.text}
                                </td>
                              </tr>
                            ))}
                          </tbody>
                        </table>
                      </details>
                    </div>
                  ))}
                </div>
              ))
          )}
        </section>
      </div>
    </>
  );
}
