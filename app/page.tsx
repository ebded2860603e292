import type { Metadata } from "next";
import { clientEnv } from "@/lib/client-env";
import Link from "next/link";
import { JudgedByBar } from "@/components/judges/judged-by-bar";
import { LeaderboardTable } from "@/components/leaderboard/leaderboard-table";
import { LeaderboardGrades } from "./leaderboard-grades";
import { LeaderboardStability } from "./leaderboard-stability";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { buttonStyles } from "@/components/ui/styles";
import { param } from "@/lib/leaderboard/view";
import { database } from "@/lib/server/db";
import { withJudge } from "@/lib/judge/choice";
import { resolveJudgedBy } from "@/lib/server/data/judges";
import { loadLeaderboard, selectBenchmark } from "@/lib/server/data/leaderboard";
import { requirePagePermission } from "@/lib/server/session";
import { nameBenchmarkInUrl } from "@/lib/server/benchmark-url";
import { DefaultBenchmarkButton } from "@/components/leaderboard/default-benchmark-button";
import { can } from "@/lib/auth/roles";

// The root layout's title template does not apply to a page in its own segment.
export const metadata: Metadata = { title: { absolute: `Leaderboard · ${clientEnv.NEXT_PUBLIC_APP_NAME}` } };

export default async function LeaderboardPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePagePermission("read", "/");
  const params = await searchParams;
  const db = database();
  const requested = param(params, "benchmark") ?? null;
  const judgedBy = await resolveJudgedBy(db, user, (await selectBenchmark(db, user, requested)).benchmark?.id ?? null, param(params, "judge"));
  const data = await loadLeaderboard(db, user, requested, { judge: judgedBy.choice });
  const benchmark = data.selection.param;
  nameBenchmarkInUrl("/", params, benchmark);
  const benchmarkQuery = benchmark ? `?benchmark=${encodeURIComponent(benchmark)}` : "";
  const query = withJudge(benchmarkQuery, judgedBy.choice);

  return (
    <>
      <PageHeader
        title="Leaderboard"
        description="Pass and resolve rates per model and domain: the paper's Table 1, reproduced from imported runs and explained down to every turn."
        actions={
          <>
            <Link href={`/charts${query}`} className={buttonStyles.secondary}>
              Charts
            </Link>
            <Link href={`/compare${query}`} className={buttonStyles.secondary}>
              Compare two models
            </Link>
            <Link href={`/tasks${query}`} className={buttonStyles.secondary}>
              Tasks
            </Link>
            <LeaderboardGrades.Toggle params={params} />
            <LeaderboardStability.Toggle params={params} />
            {data.selection.benchmark && can(user?.role, "administer") && data.selection.defaultId !== data.selection.benchmark.id ? (
              <DefaultBenchmarkButton benchmarkId={data.selection.benchmark.id} name={data.selection.benchmark.name} />
            ) : null}
          </>
        }
      />
      {data.selection.benchmark ? <JudgedByBar judgedBy={judgedBy} judging={data.judging} benchmarkQuery={benchmarkQuery} /> : null}
      {data.board.rows.length === 0 ? (
        <EmptyState title="No results yet" action={{ href: "/import", label: "Import runs" }}>
          Import the benchmark and model runs to see pass and resolve rates here.
        </EmptyState>
      ) : (
        <LeaderboardTable
          wire={data.wire}
          benchmarks={data.selection.choices}
          benchmark={benchmark}
          linkBenchmark={benchmark}
          benchmarkName={data.selection.benchmark?.name ?? null}
          runCount={data.runCount}
          inProgressModels={data.inProgressModels}
        />
      )}
      {data.selection.benchmark && param(params, "grades") === "1" ? <LeaderboardGrades user={user} benchmarkId={data.selection.benchmark.id} /> : null}
      {data.selection.benchmark && param(params, "stability") === "1" ? <LeaderboardStability user={user} benchmarkId={data.selection.benchmark.id} benchmarkParam={benchmark} /> : null}
      <details className="mt-8 max-w-4xl text-sm text-slate-700 dark:text-slate-300">
        <summary className="cursor-pointer font-medium">How these figures are computed</summary>
        <ul className="mt-2 list-disc space-y-1 pl-5">
          <li>
            <strong>Pass rate</strong> = turns whose workflow passed the pass stage ÷ turns, as each run&apos;s own judge decided them: the
            recorded verdicts for official recorded runs, the evaluation&apos;s LLM judge (or panel: each member&apos;s majority over its samples,
            then the members&apos;; ties fail) for a generated run, and otherwise this app&apos;s steps 1_1–1_3 with the rule judge, labelled
            &ldquo;rule judge (not the official LLM judge)&rdquo;. Every row says which judge made its figures.
          </li>
          <li>
            <strong>Resolve rate</strong> = test cases resolved ÷ (3 × turns). Every turn counts three cases, including turns that failed the pass
            stage and were never run. Runs without resolve-stage results (raw model output) show “—”.
          </li>
          <li>
            <strong>Measured</strong> figures pool the runs of one configuration (counts summed): a model&apos;s runs made or judged differently
            (another generation mode, parameters or judge) are separate rows, each with its configuration under the model&apos;s name. With several
            runs the run-to-run standard deviation is shown under the rate. <strong>Published</strong> figures are the paper&apos;s Table 1, each the mean of three runs.
          </li>
          <li>
            Hover or focus a figure for its count (k of n) and 95% Wilson interval. The <strong>rank</strong> counts the models whose interval lies
            entirely above a model&apos;s own; models with overlapping intervals can share a rank (shown as “3=”).
          </li>
          <li>
            <strong>Judged by</strong> re-decides every turn with the chosen judge (or a panel, by majority): a turn passes when this app&apos;s
            steps 1_1–1_3 pass and the judge&apos;s step 1_4 verdict is pass (the majority of its samples; ties fail). A test case resolves when the
            turn passes, the recorded run&apos;s file checks passed and the judge&apos;s resolve verdict is pass; cases the recorded run decided
            without its judge keep their recorded outcome, and turns the recorded run never executed resolve nothing. Runs the judge has not
            judged are listed and left out, not counted as zero.
          </li>
          <li>Per-round figures (rounds 1–3; round 4 has too few turns) are on the charts page and in the full CSV/JSON downloads.</li>
        </ul>
      </details>
    </>
  );
}
