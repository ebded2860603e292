import type { Metadata } from "next";
import { artifactTabLabel } from "@/lib/viewer/tab-labels";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Tabs, type TabItem } from "@/components/ui/tabs";
import { AttemptTimeline } from "@/components/viewer/attempt-timeline";
import { DiagnosticList } from "@/components/viewer/diagnostic-list";
import { MarkedText } from "@/components/viewer/marked-text";
import { Conversation, JudgesAndTests, ParseErrorPanel, RepairBanner, VerdictSummary, categorySummary } from "@/components/viewer/response-sections";
import { OwnJudgePanel, VerdictChips } from "@/components/viewer/own-judge";
import { WorkflowViewer } from "@/components/viewer/workflow-viewer";
import { GradeSection } from "./grade-section";
import { DryRunPanel } from "@/components/dry-run/dry-run-panel";
import { can } from "@/lib/auth/roles";
import { dryRunCasesOf } from "@/lib/server/data/dry-run";
import { modelDiffHref, turnDiffHref } from "@/lib/diff/links";
import { database } from "@/lib/server/db";
import { listGenerationAttempts } from "@/lib/server/data/generation-attempts";
import { loadResponseWithView } from "@/lib/server/data/response-view";
import { blindVisibility } from "@/lib/server/data/review";
import { checkAccess, requirePagePermission } from "@/lib/server/session";
import { clipNullable, clipResponseView, PAGE_TEXT_LIMIT, type ClippedFields, type DownloadableField } from "@/lib/viewer/page-text";
import { MAX_DRAWN_NODES } from "@/lib/viewer/model";
import type { ResponseView } from "@/lib/viewer/response-view";
import { textMarksFor } from "@/lib/viewer/text-marks";
import { difyAppName } from "@/lib/workflow/dify-dsl";
import type { SessionUser } from "@/lib/server/session";

// The page view (graph layout, located diagnostics, JSON, YAML) is computed once per response and scoring version and
// then served from memory (lib/server/data/response-view.ts). Long texts are clipped for display so the page stays
// small whatever the model wrote; the whole text is a download (/api/responses/<id>/text?field=...).
const loadResponse = cache(async (actor: SessionUser | null, responseId: string) => {
  const loaded = await loadResponseWithView(database(), actor, responseId);
  if (!loaded) return null;
  const { view, clipped } = clipResponseView(loaded.view);
  // Blind review (lib/server/data/review/blind-visibility.ts): an assigned annotator sees no verdict or reason until
  // they have voted; anonymous readers see no reason while the response is pending in a blind queue.
  const blind = await blindVisibility(database(), actor, { responseIds: [responseId] });
  const judgesHidden = blind.verdictHidden(responseId);
  const judges = judgesHidden ? [] : loaded.detail.judges.map((judge) => ({ ...judge, reason: blind.reasonHidden(responseId) ? null : clipNullable(judge.reason) }));
  const detail = { ...loaded.detail, judges, pass: judgesHidden ? null : loaded.detail.pass, cases: judgesHidden ? [] : loaded.detail.cases };
  return { detail, view, clipped, judgesHidden };
});

export async function generateMetadata({ params }: PageProps<"/responses/[responseId]">): Promise<Metadata> {
  const { responseId } = await params;
  const access = await checkAccess("read");
  if (!access.allowed) return { title: "Response" };
  const loaded = await loadResponse(access.user, responseId);
  if (!loaded) return { title: "Response not found" };
  const { detail } = loaded;
  return { title: `${detail.turn.task.name} round ${detail.turn.round} · ${detail.run.model.displayName}` };
}

/** The Coze package of the original workflow (the second platform the benchmark deploys to), or why there is none. */
function CozePackageLink({ responseId, coze }: { responseId: string; coze: ResponseView["coze"] }) {
  return (
    <p className="mb-2 text-sm" data-testid="coze-package">
      {coze.fileName ? (
        <a href={`/responses/${encodeURIComponent(responseId)}/coze`} download={coze.fileName} className="font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-300">
          Download the Coze package ({coze.fileName})
        </a>
      ) : (
        <>No Coze package: {coze.missingReason}</>
      )}
    </p>
  );
}

function textDownloadHref(responseId: string, field: DownloadableField, filename?: string): string {
  return `/api/responses/${encodeURIComponent(responseId)}/text?field=${field}${filename ? `&filename=${encodeURIComponent(filename)}` : ""}`;
}

/** Says a text is cut for display and links to the whole of it. */
function ClippedNotice({ responseId, field, clipped }: { responseId: string; field: DownloadableField; clipped: ClippedFields }) {
  const total = clipped[field];
  if (total === undefined) return null;
  return (
    <p className="mb-2 text-sm text-amber-800 dark:text-amber-300" data-testid="clipped-notice">
      Showing the first {PAGE_TEXT_LIMIT.toLocaleString("en")} of {total.toLocaleString("en")} characters.{" "}
      <a href={textDownloadHref(responseId, field)} className="underline" download>
        Download the whole text
      </a>
      .
    </p>
  );
}

function sourceTabs(responseId: string, view: ResponseView, clipped: ClippedFields, appName: string): TabItem[] {
  const { texts, original, repaired } = view;
  // Copy and Download in the tab bar carry the text to the browser a second time: only for texts shown whole.
  const whole = (field: DownloadableField, text: string, filename?: string) =>
    clipped[field] === undefined ? { text } : { downloadHref: textDownloadHref(responseId, field, filename) };
  const rawMarks = textMarksFor(view.diagnostics, "raw");
  const response: TabItem = texts.raw !== null
    ? {
        id: "response",
        label: "Raw response",
        ...whole("raw", texts.raw),
        content: (
          <>
            <ClippedNotice responseId={responseId} field="raw" clipped={clipped} />
            <MarkedText text={texts.raw} marks={rawMarks} label="Raw response" anchors={rawMarks.length > 0 && texts.workflow === null} maxHeight={560} />
          </>
        ),
      }
    : {
        id: "response",
        label: "Response fields",
        ...whole("workflow", texts.workflow ?? ""),
        content: (
          <div className="space-y-3">
            <p className="text-sm text-slate-600 dark:text-slate-400">node_selection and design_principle are shown under Instruction and answer below.</p>
            <div>
              <h3 className="mb-1 font-mono text-xs text-slate-500">workflow</h3>
              <ClippedNotice responseId={responseId} field="workflow" clipped={clipped} />
              {texts.workflow === null ? <p className="text-sm text-slate-500">Missing.</p> : <MarkedText text={texts.workflow} marks={textMarksFor(view.diagnostics, "workflow")} label="workflow" anchors={false} maxHeight={480} />}
            </div>
          </div>
        ),
      };
  const json = original.prettyJson ?? repaired.prettyJson;
  const jsonTab: TabItem = {
    id: "json",
    label: artifactTabLabel("Pretty JSON", original.prettyJson, repaired.prettyJson),
    content: json ? (
      <>
        {original.prettyJson ? null : <p className="mb-2 text-sm text-amber-800 dark:text-amber-300">The original JSON does not parse; this is the repaired workflow.</p>}
        <ClippedNotice responseId={responseId} field="json" clipped={clipped} />
        <pre className="max-h-[560px] overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs dark:bg-slate-800" data-testid="pretty-json">{json}</pre>
      </>
    ) : (
      <p className="text-sm">The workflow JSON does not parse and no repair makes it parse.</p>
    ),
    ...(json ? { ...whole("json", json, `${appName}${original.prettyJson ? "" : ".repaired"}.json`), filename: `${appName}${original.prettyJson ? "" : ".repaired"}.json`, mime: "application/json" } : {}),
  };
  const yaml = original.yaml ?? repaired.yaml;
  const yamlTab: TabItem = {
    id: "yaml",
    label: artifactTabLabel("Dify YAML", original.yaml, repaired.yaml),
    content: (
      <>
        <CozePackageLink responseId={responseId} coze={view.coze} />
        {original.yaml ? null : <p className="mb-2 text-sm">{original.yamlMissingReason}{repaired.yaml ? " Below is the Dify DSL of the repaired workflow." : ""}</p>}
        <ClippedNotice responseId={responseId} field="yaml" clipped={clipped} />
        {yaml ? <pre className="max-h-[560px] overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs dark:bg-slate-800" data-testid="dify-yaml">{yaml}</pre> : null}
      </>
    ),
    ...(yaml ? { ...whole("yaml", yaml, `${appName}${original.yaml ? "" : ".repaired"}.yml`), filename: `${appName}${original.yaml ? "" : ".repaired"}.yml`, mime: "application/x-yaml" } : {}),
  };
  return [response, jsonTab, yamlTab];
}

export default async function ResponsePage({ params, searchParams }: PageProps<"/responses/[responseId]">) {
  const { responseId } = await params;
  const user = await requirePagePermission("read", `/responses/${encodeURIComponent(responseId)}`);
  const loaded = await loadResponse(user, responseId);
  if (!loaded) notFound();
  const { detail, view, clipped, judgesHidden } = loaded;
  const query = await searchParams;
  const initialNode = typeof query.node === "string" ? query.node : null;
  const appName = difyAppName(detail.turn.task.name, detail.turn.round);
  const graph = view.original.view ?? view.repaired.view;
  const isRepaired = view.original.view === null && view.repaired.view !== null;
  // In a blind review the attempts (their outcomes and checks) stay hidden with the verdicts.
  const attempts = detail.run.origin === "generated" && !judgesHidden ? await listGenerationAttempts(database(), user, detail.id) : [];
  // The dry run predicts test outcomes, so a blind review hides it with the verdicts.
  const dryRun = judgesHidden ? null : await dryRunCasesOf(database(), user, detail.id);
  const dryRunTab: TabItem[] = dryRun
    ? [{ id: "dry-run", label: "Dry run", content: <DryRunPanel cases={dryRun.cases} passed={dryRun.passed} responseId={detail.id} runId={dryRun.runId} canStart={can(user?.role, "runJobs")} view={graph} /> }]
    : [];

  return (
    <div className="space-y-8">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600 dark:text-slate-400">
        <Link href="/runs" className="hover:underline">Runs</Link> ›{" "}
        <Link href={`/runs/${detail.run.id}`} className="hover:underline">
          {detail.run.model.displayName} · {detail.run.label}
        </Link>{" "}
        › {detail.turn.task.name} round {detail.turn.round}
      </nav>
      <PageHeader
        title={`${detail.turn.task.name} · round ${detail.turn.round}`}
        description={
          <>
            {detail.run.model.displayName} ({detail.run.model.name}) · {detail.turn.task.domain} · {detail.run.benchmark.name} · {categorySummary(view)}
          </>
        }
        actions={
          <>
            {detail.previous ? (
              <Link href={`/responses/${detail.previous.id}`} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800" rel="prev">
                ← {detail.previous.label}
              </Link>
            ) : null}
            {detail.next ? (
              <Link href={`/responses/${detail.next.id}`} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800" rel="next">
                {detail.next.label} →
              </Link>
            ) : null}
          </>
        }
      />
      <nav aria-label="Compare this response" className="flex flex-wrap gap-2 text-sm" data-testid="response-diff-links">
        {detail.turn.round > 1 ? (
          <Link href={turnDiffHref({ runId: detail.run.id, task: detail.turn.task.name, round: detail.turn.round })} className="rounded-md border border-slate-300 px-3 py-1.5 hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800">
            Diff with the previous turn (round {detail.turn.round - 1} → {detail.turn.round})
          </Link>
        ) : null}
        <Link href={modelDiffHref({ turn: detail.turn.key, a: detail.run.id })} className="rounded-md border border-slate-300 px-3 py-1.5 hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800">
          Compare with another model on this turn
        </Link>
      </nav>
      {judgesHidden ? (
        <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950/40" data-testid="verdicts-hidden">
          This response is in a blind review queue assigned to you: its verdicts, the judges&apos; reasons and the test results stay hidden until you
          have voted on it. <Link href="/review" className="underline">Go to your review queues</Link>.
        </p>
      ) : (
        <VerdictChips detail={detail} view={view} />
      )}
      <section aria-labelledby="workflow-title" className="space-y-3">
        <h2 id="workflow-title" className="text-lg font-semibold">
          Workflow
        </h2>
        {!view.parses ? <ParseErrorPanel view={view} /> : null}
        {isRepaired ? <RepairBanner view={view} /> : null}
        {graph ? (
          <WorkflowViewer
            key={isRepaired ? "repaired" : "original"}
            view={graph}
            initialNode={initialNode}
            label={isRepaired ? "Repaired workflow graph" : "Workflow graph"}
          />
        ) : view.original.tooLargeToDraw || view.repaired.tooLargeToDraw ? (
          <EmptyState title="Too large to draw">The workflow has more than {MAX_DRAWN_NODES} nodes, more than a drawing can show; its diagnostics are listed below.</EmptyState>
        ) : view.parses ? (
          <EmptyState title="Nothing to draw">The workflow JSON parses but has no nodes to draw (see the diagnostics below).</EmptyState>
        ) : null}
        {!graph || isRepaired ? (
          <div className="rounded-xl border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900">
            <h3 className="mb-1 text-sm font-semibold">Diagnostics of the response as written</h3>
            <DiagnosticList diagnostics={view.diagnostics} />
          </div>
        ) : null}
      </section>

      {judgesHidden ? null : <OwnJudgePanel detail={detail} view={view} />}
      {judgesHidden ? null : <VerdictSummary detail={detail} view={view} />}
      {judgesHidden ? null : <GradeSection user={user} responseId={detail.id} />}

      <AttemptTimeline attempts={attempts} />

      <section aria-labelledby="source-title" className="space-y-2">
        <h2 id="source-title" className="text-lg font-semibold">
          Source
        </h2>
        <Tabs items={[...sourceTabs(detail.id, view, clipped, appName), ...dryRunTab]} label="Response source" />
      </section>

      <Conversation detail={detail} view={view} diagnostics={view.diagnostics} clipped={<>
        <ClippedNotice responseId={detail.id} field="nodeSelection" clipped={clipped} />
        <ClippedNotice responseId={detail.id} field="designPrinciple" clipped={clipped} />
      </>} />
      {judgesHidden ? null : <JudgesAndTests detail={detail} view={view} />}
    </div>
  );
}
