import type { Metadata } from "next";
import Link from "next/link";
import { CreateQueueButton } from "@/components/review/create-queue-button";
import { ConfusionMatrix } from "@/components/review/confusion-matrix";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { buttonStyles, cardStyles, inputStyles, labelStyles } from "@/components/ui/styles";
import { formatPercent } from "@/lib/format";
import { parseJudgeChoice } from "@/lib/judge/choice";
import { param } from "@/lib/leaderboard/view";
import { confusionView, kappaView } from "@/lib/review/agreement-view";
import { STAGES, type Stage } from "@/lib/review/filter";
import { isAllowed } from "@/lib/server/authz";
import { database } from "@/lib/server/db";
import { getJudgeComparison, listJudges, sideMembers, splitItemKey } from "@/lib/server/data/judges";
import { selectBenchmark } from "@/lib/server/data/leaderboard";
import { requirePagePermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Compare judges" };

const MAX_LISTED = 500;
const verdictText = (verdict: boolean) => (verdict ? "pass" : "fail");

export default async function CompareJudgesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePagePermission("read", "/judges/compare");
  const params = await searchParams;
  const db = database();
  const selection = await selectBenchmark(db, user, param(params, "benchmark") ?? null);
  const benchmark = selection.benchmark;
  const stage: Stage = param(params, "stage") === "resolve" ? "resolve" : "pass";
  const inventory = benchmark ? await listJudges(db, user, benchmark.id) : null;
  const stageJudges = (inventory?.judges ?? []).filter((judge) => judge.stage === stage).map((judge) => judge.judge);
  const rawA = param(params, "a") ?? stageJudges.find((judge) => judge !== "recorded") ?? "";
  const rawB = param(params, "b") ?? "recorded";
  const parsedA = parseJudgeChoice(rawA);
  const parsedB = parseJudgeChoice(rawB);
  const problems = [...(parsedA.ok ? [] : [`A: ${parsedA.issues.join("; ")}`]), ...(parsedB.ok ? [] : [`B: ${parsedB.issues.join("; ")}`])];
  const membersA = parsedA.ok ? sideMembers(parsedA.value) : [];
  const membersB = parsedB.ok ? sideMembers(parsedB.value) : [];
  const nameA = membersA.length > 1 ? `panel ${membersA.join(", ")}` : (membersA[0] ?? "A");
  const nameB = membersB.length > 1 ? `panel ${membersB.join(", ")}` : (membersB[0] ?? "B");
  const data = benchmark && parsedA.ok && parsedB.ok && rawA ? await getJudgeComparison(db, user, benchmark.id, stage, parsedA.value, parsedB.value) : null;
  const mayQueue = isAllowed(user, "manageQueues") && membersA.length === 1 && membersB.length === 1 && membersA[0] !== membersB[0];
  const bq = selection.param ? `benchmark=${encodeURIComponent(selection.param)}` : "";

  return (
    <>
      <PageHeader
        title="Compare judges"
        description="Two judges (or panels) on the same items of one stage: raw agreement, Cohen's κ, the confusion matrix and every disagreement, which can become a review queue."
        actions={
          <Link href={`/judges${bq ? `?${bq}` : ""}`} className={buttonStyles.secondary}>
            All judges
          </Link>
        }
      />
      {!benchmark ? (
        <EmptyState title="No benchmark imported" action={{ href: "/import", label: "Import a benchmark" }}>
          Judges appear once runs with judge verdicts have been imported.
        </EmptyState>
      ) : (
        <div className="space-y-6">
          <form method="get" action="/judges/compare" className="flex flex-wrap items-end gap-4" aria-label="Choose the judges">
            {selection.param ? <input type="hidden" name="benchmark" value={selection.param} /> : null}
            <label className={labelStyles}>
              Stage
              <select name="stage" defaultValue={stage} className={inputStyles}>
                {STAGES.map((entry) => (
                  <option key={entry} value={entry}>
                    {entry}
                  </option>
                ))}
              </select>
            </label>
            <label className={labelStyles}>
              Judge A (a label or panel:a,b,c)
              <input name="a" defaultValue={rawA} list="judge-labels" className={`${inputStyles} min-w-56`} />
            </label>
            <label className={labelStyles}>
              Judge B
              <input name="b" defaultValue={rawB} list="judge-labels" className={`${inputStyles} min-w-56`} />
            </label>
            <datalist id="judge-labels">
              {stageJudges.map((judge) => (
                <option key={judge} value={judge} />
              ))}
            </datalist>
            <button type="submit" className={buttonStyles.primary}>
              Compare
            </button>
          </form>
          {problems.length ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {problems.join(" · ")}
            </p>
          ) : null}
          {!data ? (
            <EmptyState title="Choose two judges">Pick the judges (or panels) to compare; the judges present are listed on the judges page.</EmptyState>
          ) : data.comparison.n === 0 ? (
            <EmptyState title="No shared items">
              {nameA} and {nameB} have not judged any of the same {stage}-stage items ({data.comparison.onlyA} items only {nameA}, {data.comparison.onlyB} only {nameB}).
            </EmptyState>
          ) : (
            <>
              <section aria-labelledby="figures" className={`${cardStyles} space-y-3`}>
                <h2 id="figures" className="text-lg font-semibold">
                  {nameA} vs {nameB}, {stage} stage
                </h2>
                <dl className="flex flex-wrap gap-8" data-testid="judge-comparison">
                  <div>
                    <dt className="text-xs uppercase tracking-wide text-slate-500">Items both judged</dt>
                    <dd className="text-2xl font-semibold tabular-nums">{data.comparison.n}</dd>
                  </div>
                  <div>
                    <dt className="text-xs uppercase tracking-wide text-slate-500">Raw agreement</dt>
                    <dd className="text-2xl font-semibold tabular-nums" data-testid="raw-agreement">
                      {data.comparison.agreement.rate === null ? "—" : formatPercent(data.comparison.agreement.rate)}
                    </dd>
                    <dd className="text-xs text-slate-500">
                      {data.comparison.agreement.num} of {data.comparison.agreement.den}
                    </dd>
                  </div>
                  <div>
                    <dt className="text-xs uppercase tracking-wide text-slate-500">Cohen&apos;s κ</dt>
                    <dd className="text-2xl font-semibold tabular-nums" data-testid="kappa">
                      {kappaView(data.comparison.kappa).text}
                    </dd>
                    <dd className="text-xs text-slate-500">{kappaView(data.comparison.kappa).note}</dd>
                  </div>
                </dl>
                <p className="text-sm text-slate-600 dark:text-slate-400">
                  Each side&apos;s verdict is the majority of its samples (a panel: the majority of its members; ties fail). Outside the comparison:{" "}
                  {data.comparison.onlyA} item{data.comparison.onlyA === 1 ? "" : "s"} only {nameA} judged, {data.comparison.onlyB} only {nameB} judged.
                </p>
                <ConfusionMatrix
                  view={confusionView(data.comparison.confusion, new Map([...data.items].map(([key, info]) => [key, info.label])), nameA, nameB)}
                  hrefFor={(id) => `/responses/${encodeURIComponent(splitItemKey(id).responseId)}`}
                  caption={`${nameA} (rows) against ${nameB} (columns)`}
                />
              </section>
              <section aria-labelledby="disagreements" className={`${cardStyles} space-y-3`}>
                <h2 id="disagreements" className="text-lg font-semibold">
                  Disagreements ({data.comparison.disagreements.length})
                </h2>
                {mayQueue ? (
                  <>
                    <CreateQueueButton source={{ from: "judge-disagreements", benchmarkId: benchmark.id, stage, judge: membersA[0]!, against: membersB[0]!, count: data.comparison.disagreements.length }} />
                    <p className="text-xs text-slate-500">
                      The queue reviews {nameA}&apos;s verdicts (its first sample when it has several) where they differ from {nameB}&apos;s majority; it opens
                      blind, with three annotators per item, editable on the queue&apos;s page.
                    </p>
                  </>
                ) : membersA.length > 1 || membersB.length > 1 ? (
                  <p className="text-xs text-slate-500">A review queue holds one judge&apos;s verdicts: compare two single judges to make one.</p>
                ) : null}
                <DataTable
                  caption={`Items where ${nameA} and ${nameB} differ${data.comparison.disagreements.length > MAX_LISTED ? ` (first ${MAX_LISTED})` : ""}`}
                  testId="disagreements"
                  headers={["Item", nameA, nameB, ""]}
                  rows={data.comparison.disagreements.slice(0, MAX_LISTED).map((entry) => {
                    const info = data.items.get(entry.item);
                    return [
                      info?.label ?? entry.item,
                      verdictText(entry.a),
                      verdictText(entry.b),
                      <Link key="open" prefetch={false} href={`/responses/${encodeURIComponent(splitItemKey(entry.item).responseId)}`} className="text-brand-700 hover:underline dark:text-brand-400">
                        Response
                      </Link>,
                    ];
                  })}
                />
              </section>
            </>
          )}
        </div>
      )}
    </>
  );
}
