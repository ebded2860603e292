import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { RunResolveJudging } from "@/components/dify/run-resolve-judging";
import { LiveEvaluation } from "@/components/evaluations/live-evaluation";
import { MODE_CHOICES } from "@/components/evaluations/mode-choices";
import { PageHeader } from "@/components/ui/page-header";
import { can } from "@/lib/auth/roles";
import { formatDateTime } from "@/lib/format";
import { database } from "@/lib/server/db";
import { getEvaluation } from "@/lib/server/evaluations/get-evaluation";
import { getEvaluationProgress } from "@/lib/server/evaluations/get-evaluation-progress";
import { selectBenchmark } from "@/lib/server/data/leaderboard";
import { listEndpoints } from "@/lib/server/endpoints/endpoints";
import { notJudgedByRun } from "@/lib/server/resolve/not-judged";
import { requirePagePermission } from "@/lib/server/session";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: PageProps<"/evaluations/[id]">): Promise<Metadata> {
  const { id } = await params;
  return { title: `Evaluation ${id.slice(0, 8)}` };
}

function judgeText(judge: { kind: string; endpointIds?: string[] }): string {
  if (judge.kind === "llm") return (judge.endpointIds?.length ?? 0) > 1 ? `a panel of ${judge.endpointIds?.length} LLM judges` : "an LLM judge";
  return judge.kind === "rule" ? "the rule judge" : "no judge (steps 1_1–1_3 only)";
}

export default async function EvaluationPage({ params }: PageProps<"/evaluations/[id]">) {
  const { id } = await params;
  const user = await requirePagePermission("read", `/evaluations/${encodeURIComponent(id)}`);
  const db = database();
  const [evaluation, progress] = await Promise.all([getEvaluation(db, user, id), getEvaluationProgress(db, user, id)]);
  if (!evaluation || !progress) notFound();
  const selection = await selectBenchmark(db, user, evaluation.benchmark.id);
  // Runs whose Dify execution left test cases not judged: they have no resolve rate until a resolve judge answers them.
  const notJudged = await notJudgedByRun(db, user, progress.runs.map((run) => run.runId));
  const mayJudge = user !== null && can(user.role, "runJobs");
  const judgeEndpoints = mayJudge && notJudged.size > 0 ? (await listEndpoints(db, user)).map((endpoint) => ({ id: endpoint.id, label: endpoint.label, model: endpoint.model })) : [];
  const mode = MODE_CHOICES.find((choice) => choice.value === evaluation.mode);
  const model = evaluation.model?.displayName ?? evaluation.endpoint?.model ?? "deleted endpoint";
  const overrides = [
    evaluation.params.temperature !== undefined ? `temperature ${evaluation.params.temperature}` : null,
    evaluation.params.maxTokens !== undefined ? `max tokens ${evaluation.params.maxTokens}` : null,
  ].filter(Boolean);
  return (
    <div className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600 dark:text-slate-400">
        <Link href="/evaluations" className="hover:underline">
          Evaluations
        </Link>{" "}
        › {model} · {mode?.label ?? evaluation.mode}
      </nav>
      <PageHeader
        title={`${model} · ${mode?.label ?? evaluation.mode}`}
        description={
          <>
            {evaluation.benchmark.name} · {evaluation.runCount} run{evaluation.runCount === 1 ? "" : "s"} · {judgeText(evaluation.judge)}
            {evaluation.endpoint ? ` · endpoint ${evaluation.endpoint.label}` : ""}
            {overrides.length ? ` · ${overrides.join(", ")}` : ""} · started {formatDateTime(evaluation.createdAt)}
            {evaluation.finishedAt ? ` · finished ${formatDateTime(evaluation.finishedAt)}` : ""}. {mode?.description}
          </>
        }
      />
      <LiveEvaluation
        initial={progress}
        mayControl={user !== null && can(user.role, "runJobs")}
        context={{ benchmarkName: evaluation.benchmark.name, benchmarkParam: selection.param, modelName: evaluation.model?.name ?? null }}
      />
      {progress.runs.flatMap((run) => {
        const count = notJudged.get(run.runId) ?? 0;
        if (count === 0) return [];
        const heading = `${run.label}: resolve not judged (${count})`;
        return mayJudge
          ? [<RunResolveJudging key={run.runId} runId={run.runId} notJudged={count} endpoints={judgeEndpoints} heading={heading} />]
          : [<p key={run.runId} className="text-sm" data-testid="resolve-not-judged">{heading}: no resolve rate until its test cases are judged.</p>];
      })}
    </div>
  );
}
