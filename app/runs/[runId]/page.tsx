import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { cardStyles, tableStyles } from "@/components/ui/styles";
import { RunFigures } from "@/components/runs/run-figures";
import { CATEGORY_COLORS, CATEGORY_LABELS } from "@/components/viewer/palette";
import { stepLabel } from "@/components/viewer/response-sections";
import { turnKey } from "@/lib/benchmark/dataset";
import { modelDiffHref, turnDiffHref } from "@/lib/diff/links";
import { RunJudging } from "@/components/jobs/run-judging";
import { RunDifyExecution } from "@/components/dify/run-dify-execution";
import { BundleProvenance } from "@/components/runs/bundle-provenance";
import { RunResolveJudging } from "@/components/dify/run-resolve-judging";
import { can } from "@/lib/auth/roles";
import { formatDateTime } from "@/lib/format";
import { modeLabel } from "@/lib/generation/modes";
import { database } from "@/lib/server/db";
import { listRunResponses, type RunResponseRow } from "@/lib/server/data/responses";
import { getRunBundleProvenance } from "@/lib/server/data/run-bundle-imports";
import { getRunFigures } from "@/lib/server/data/runs";
import { listEndpoints } from "@/lib/server/endpoints/endpoints";
import { listDifyConnections } from "@/lib/server/dify-connections/connections";
import { allowedImportRoots } from "@/lib/server/import/allowed-dirs";
import { listJobs } from "@/lib/server/jobs/jobs-data";
import { describeRunPassGate } from "@/lib/server/resolve/pass-gate";
import { checkAccess, requirePagePermission, type SessionUser } from "@/lib/server/session";
import { DIAGNOSTIC_CATEGORIES, type DiagnosticCategory } from "@/lib/workflow/diagnostics";

const loadRun = cache((actor: SessionUser | null, runId: string) => listRunResponses(database(), actor, runId));

export async function generateMetadata({ params }: PageProps<"/runs/[runId]">): Promise<Metadata> {
  const { runId } = await params;
  const access = await checkAccess("read");
  if (!access.allowed) return { title: "Run" };
  const loaded = await loadRun(access.user, runId);
  return { title: loaded ? `${loaded.run.model.displayName} · ${loaded.run.label}` : "Run not found" };
}

const FILTERS = [
  { id: "all", label: "All" },
  { id: "pass", label: "Valid" },
  { id: "step_1_1", label: "Step 1.1" },
  { id: "step_1_2", label: "Step 1.2" },
  { id: "step_1_3", label: "Step 1.3" },
  { id: "step_1_4", label: "Step 1.4" },
  { id: "disagree", label: "Disagreements" },
] as const;

type FilterId = (typeof FILTERS)[number]["id"];

function matches(row: RunResponseRow, filter: FilterId): boolean {
  switch (filter) {
    case "all":
      return true;
    case "pass":
      return row.valid === true;
    case "disagree":
      return row.disagreement !== null;
    default:
      return row.failStep === filter;
  }
}

function isCategory(value: string): value is DiagnosticCategory {
  return (DIAGNOSTIC_CATEGORIES as readonly string[]).includes(value);
}

export default async function RunPage({ params, searchParams }: PageProps<"/runs/[runId]">) {
  const { runId } = await params;
  const user = await requirePagePermission("read", `/runs/${encodeURIComponent(runId)}`);
  const loaded = await loadRun(user, runId);
  if (!loaded) notFound();
  const { run, responses } = loaded;
  const figures = (await getRunFigures(database(), user, [run.id])).get(run.id);
  const query = await searchParams;
  const filter: FilterId = FILTERS.find((f) => f.id === query.filter)?.id ?? "all";
  const rows = responses.filter((row) => matches(row, filter));
  const recorded = run.origin === "recorded";
  const mayJudge = user !== null && can(user.role, "runJobs");
  const [endpoints, jobs] = mayJudge ? await Promise.all([listEndpoints(database(), user), listJobs(database(), user, { runId: run.id, limit: 20 })]) : [[], []];
  // Recorded runs carry their official test results; imported and generated ones may be executed on Dify.
  const difyConnections = mayJudge && !recorded ? await listDifyConnections(database(), user) : [];
  const provenance = await getRunBundleProvenance(database(), user, run.id);
  const passGate = mayJudge && user && !recorded ? await describeRunPassGate(database(), user, run.id) : null;
  const casesNotJudged = responses.reduce((sum, row) => sum + row.casesNotJudged, 0);

  return (
    <div className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600 dark:text-slate-400">
        <Link href="/runs" className="hover:underline">Runs</Link> › {run.model.displayName} · {run.label}
      </nav>
      <PageHeader
        title={`${run.model.displayName} · ${run.label}`}
        description={
          <>
            {run.status === "in-progress" ? (
              <>
                <Badge tone="info" title="Still being generated: the figures below fill in as turns arrive">
                  in progress
                </Badge>{" "}
              </>
            ) : null}
            {run.benchmark.name} · {run.origin}
            {run.generationMode ? ` (${modeLabel(run.generationMode)}${run.agentVersion ? `, ${run.agentVersion}` : ""})` : ""}
            {run.evaluationId ? (
              <>
                {" "}
                · <Link href={`/evaluations/${run.evaluationId}`} className="text-brand-600 underline dark:text-brand-500">its evaluation</Link>
              </>
            ) : null}{" "}
            · {run.responseCount} responses · imported {formatDateTime(run.importedAt)} · scored with core <span className="font-mono">{run.coreVersion}</span>
            {figures ? (
              <>
                {" "}
                · <span data-testid="run-configuration">{figures.configuration}</span> ·{" "}
                <Link href={`/models/${encodeURIComponent(figures.series)}?benchmark=${encodeURIComponent(run.benchmark.name)}`} className="text-brand-600 underline dark:text-brand-500">
                  its leaderboard row
                </Link>
              </>
            ) : null}
          </>
        }
        actions={
          <span className="flex gap-2">
            <Link href={`/runs/${run.id}/report`} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800">
              Grade report
            </Link>
            <a href={`/runs/${run.id}/download/resolve-records`} download className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800">
              Resolve records (JSON)
            </a>
            <a
              href={`/runs/${run.id}/download/bundle`}
              download
              title="One zip with what produced this run, for others to check: npm run import -- --bundle"
              className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800"
            >
              Run bundle (zip)
            </a>
          </span>
        }
      />
      {provenance ? <BundleProvenance provenance={provenance} /> : null}
      {figures ? <RunFigures figures={figures} className={cardStyles} /> : null}
      {mayJudge && user ? (
        <RunJudging
          runId={run.id}
          endpoints={endpoints.map((endpoint) => ({ id: endpoint.id, label: endpoint.label, model: endpoint.model }))}
          hasResolve={run.hasResolve}
          mayManageEndpoints={can(user.role, "manageEndpoints")}
          initialJobs={jobs}
        />
      ) : null}
      {casesNotJudged > 0 ? (
        mayJudge ? (
          <RunResolveJudging runId={run.id} notJudged={casesNotJudged} endpoints={endpoints.map((endpoint) => ({ id: endpoint.id, label: endpoint.label, model: endpoint.model }))} />
        ) : (
          <p className="text-sm" data-testid="resolve-not-judged">
            Resolve: not judged ({casesNotJudged}) — test cases whose text outputs no LLM judge has answered; the run has no resolve rate until they are judged.
          </p>
        )
      ) : null}
      {mayJudge && user && !recorded ? (
        <RunDifyExecution
          runId={run.id}
          connections={difyConnections.map((connection) => ({ id: connection.id, label: connection.label, baseUrl: connection.baseUrl }))}
          endpoints={endpoints.map((endpoint) => ({ id: endpoint.id, label: endpoint.label, model: endpoint.model }))}
          passJudges={passGate?.candidates ?? []}
          passGate={passGate?.describe ?? "the run's own pass judge"}
          defaultCaseFilesDir={`${allowedImportRoots()[0] ?? ""}/case_files`}
          mayManageConnections={can(user.role, "manageEndpoints")}
        />
      ) : null}
      <nav aria-label="Filter responses" className="flex flex-wrap gap-2">
        {FILTERS.map((f) => {
          const count = responses.filter((row) => matches(row, f.id)).length;
          const active = f.id === filter;
          return (
            <Link
              key={f.id}
              href={f.id === "all" ? `/runs/${run.id}` : `/runs/${run.id}?filter=${f.id}`}
              aria-current={active ? "page" : undefined}
              className={`rounded-full border px-3 py-1 text-sm ${active ? "border-brand-600 bg-brand-600 text-white" : "border-slate-300 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"}`}
            >
              {f.label} <span className="tabular-nums opacity-80">({count})</span>
            </Link>
          );
        })}
      </nav>
      {rows.length === 0 ? (
        <EmptyState title={responses.length === 0 ? "This run has no responses" : "No response matches this filter"} action={filter !== "all" ? { href: `/runs/${run.id}`, label: "Show all responses" } : undefined}>
          {responses.length === 0 ? "Import a run file with responses to see them here." : "Choose another filter above."}
        </EmptyState>
      ) : (
        <div className={tableStyles.wrapper}>
          <table className={tableStyles.table} data-testid="run-responses">
            <caption className="sr-only">Responses of this run</caption>
            <thead>
              <tr>
                <th scope="col" className={`${tableStyles.th} ${tableStyles.sticky}`}>Task</th>
                <th scope="col" className={tableStyles.th}>Round</th>
                <th scope="col" className={tableStyles.th}>{recorded ? "Recorded verdict" : `Verdict (${figures?.judge ?? "own judge"})`}</th>
                <th scope="col" className={tableStyles.th}>Steps 1_1–1_3 and rule judge</th>
                <th scope="col" className={tableStyles.th}>Top diagnostic</th>
                <th scope="col" className={tableStyles.th}>Diagnostics</th>
                {run.hasResolve ? <th scope="col" className={tableStyles.th}>Tests</th> : null}
                <th scope="col" className={tableStyles.th}>Compare</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {rows.map((row) => (
                <tr key={row.id} data-testid="response-row" data-task={row.task} data-round={row.round} data-fail-step={row.failStep ?? "pass"}>
                  <td className={`${tableStyles.td} ${tableStyles.sticky}`}>
                    {/* Long link tables never prefetch: each target page is real server work. */}
                    <Link prefetch={false} href={`/responses/${row.id}`} className="font-medium text-brand-600 hover:underline dark:text-brand-500">
                      {row.task}
                    </Link>
                    <span className="block text-xs text-slate-500">{row.domain}</span>
                  </td>
                  <td className={tableStyles.tdNumber}>{row.round}</td>
                  <td className={tableStyles.td}>
                    <Badge tone={row.valid ? "good" : "bad"}>{row.valid ? "valid" : "invalid"}</Badge> <span className="text-xs">{row.failStep ?? ""}</span>
                  </td>
                  <td className={tableStyles.td}>
                    <span className="text-xs">{row.deterministicValid ? "valid" : stepLabel(row.officialFailStep ?? (row.ruleJudge === false ? "step_1_4" : null))}</span>
                    {row.disagreement ? (
                      <span className="ml-1">
                        <Badge tone="warn" title="Recorded and deterministic verdicts differ">differs</Badge>
                      </span>
                    ) : null}
                  </td>
                  <td className="min-w-64 max-w-sm px-3 py-2 align-top">
                    {row.topDiagnostic ? (
                      <span className="flex items-start gap-1.5">
                        {isCategory(row.topDiagnostic.category) ? (
                          <span className="mt-0.5 rounded border-l-4 bg-slate-100 px-1 text-[11px] font-semibold text-slate-800 dark:bg-slate-800 dark:text-slate-100" style={{ borderLeftColor: CATEGORY_COLORS[row.topDiagnostic.category] }}>
                            {CATEGORY_LABELS[row.topDiagnostic.category]}
                          </span>
                        ) : null}
                        <span>
                          <code className="text-xs">{row.topDiagnostic.code}</code>
                          <span className="block text-xs text-slate-600 dark:text-slate-400">{row.topDiagnostic.message.length > 140 ? `${row.topDiagnostic.message.slice(0, 139)}…` : row.topDiagnostic.message}</span>
                        </span>
                      </span>
                    ) : (
                      <span className="text-slate-500">—</span>
                    )}
                  </td>
                  <td className={tableStyles.tdNumber}>{row.diagnosticCount}</td>
                  {run.hasResolve ? (
                    <td className={tableStyles.tdNumber}>
                      {row.caseCount ? `${row.casesPassed ?? 0}/${row.caseCount}` : "—"}
                      {row.casesNotJudged > 0 ? <span className="block text-xs text-amber-700 dark:text-amber-400">not judged ({row.casesNotJudged})</span> : null}
                    </td>
                  ) : null}
                  <td className={tableStyles.td}>
                    <span className="flex flex-col gap-0.5 text-xs">
                      {row.round > 1 ? (
                        <Link prefetch={false} href={turnDiffHref({ runId: run.id, task: row.task, round: row.round })} className="text-brand-700 underline underline-offset-2 dark:text-brand-300" aria-label={`Turn diff, round ${row.round - 1} → ${row.round}`}>
                          round {row.round - 1} → {row.round}
                        </Link>
                      ) : null}
                      <Link prefetch={false} href={modelDiffHref({ turn: turnKey(row.task, row.round), a: run.id })} className="text-brand-700 underline underline-offset-2 dark:text-brand-300" aria-label="Compare with other models on this turn">
                        other models
                      </Link>
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
