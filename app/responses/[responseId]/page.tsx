import type { Metadata } from "next";
import { artifactTabLabel } from "@/lib/viewer/tab-labels";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Tabs, type TabItem } from "@/components/ui/tabs";
import { DiagnosticList } from "@/components/viewer/diagnostic-list";
import { MarkedText } from "@/components/viewer/marked-text";
import { Conversation, JudgesAndTests, ParseErrorPanel, RepairBanner, VerdictSummary, categorySummary } from "@/components/viewer/response-sections";
import { WorkflowViewer } from "@/components/viewer/workflow-viewer";
import { modelDiffHref, turnDiffHref } from "@/lib/diff/links";
import { database } from "@/lib/server/db";
import { getResponseDetail } from "@/lib/server/data/responses";
import { checkAccess, requirePagePermission } from "@/lib/server/session";
import { buildResponseView, type ResponseView } from "@/lib/viewer/response-view";
import { textMarksFor } from "@/lib/viewer/text-marks";
import { difyAppName } from "@/lib/workflow/dify-dsl";
import type { SessionUser } from "@/lib/server/session";

// The stored response is re-scored here with the current core (pure and fast): that gives the Dify conversion
// and located diagnostics the drawing needs in one consistent set. The stored Diagnostic rows hold the same data
// for list and aggregate queries (run page, leaderboards); the stored recorded verdicts are shown as they are.
const loadResponse = cache(async (actor: SessionUser | null, responseId: string) => {
  const detail = await getResponseDetail(database(), actor, responseId);
  if (!detail) return null;
  const view = buildResponseView({
    rawText: detail.rawText,
    nodeSelection: detail.nodeSelection,
    designPrinciple: detail.designPrinciple,
    workflow: detail.workflow,
    turn: { inputVars: detail.turn.inputVars, outputVars: detail.turn.outputVars, keyNodes: detail.turn.keyNodes },
    appName: difyAppName(detail.turn.task.name, detail.turn.round),
  });
  return { detail, view };
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

function sourceTabs(view: ResponseView, appName: string): TabItem[] {
  const { texts, original, repaired } = view;
  const rawMarks = textMarksFor(view.diagnostics, "raw");
  const response: TabItem = texts.raw !== null
    ? {
        id: "response",
        label: "Raw response",
        text: texts.raw,
        content: <MarkedText text={texts.raw} marks={rawMarks} label="Raw response" anchors={rawMarks.length > 0 && texts.workflow === null} maxHeight={560} />,
      }
    : {
        id: "response",
        label: "Response fields",
        text: texts.workflow ?? "",
        content: (
          <div className="space-y-3">
            {(
              [
                ["node_selection", texts.nodeSelection],
                ["design_principle", texts.designPrinciple],
                ["workflow", texts.workflow],
              ] as const
            ).map(([name, text]) => (
              <div key={name}>
                <h3 className="mb-1 font-mono text-xs text-slate-500">{name}</h3>
                {text === null ? <p className="text-sm text-slate-500">Missing.</p> : <MarkedText text={text} marks={name === "workflow" ? textMarksFor(view.diagnostics, "workflow") : []} label={name} anchors={false} maxHeight={name === "workflow" ? 480 : 200} />}
              </div>
            ))}
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
        <pre className="max-h-[560px] overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs dark:bg-slate-800" data-testid="pretty-json">{json}</pre>
      </>
    ) : (
      <p className="text-sm">The workflow JSON does not parse and no repair makes it parse.</p>
    ),
    ...(json ? { text: json, filename: `${appName}${original.prettyJson ? "" : ".repaired"}.json`, mime: "application/json" } : {}),
  };
  const yaml = original.yaml ?? repaired.yaml;
  const yamlTab: TabItem = {
    id: "yaml",
    label: artifactTabLabel("Dify YAML", original.yaml, repaired.yaml),
    content: (
      <>
        {original.yaml ? null : <p className="mb-2 text-sm">{original.yamlMissingReason}{repaired.yaml ? " Below is the Dify DSL of the repaired workflow." : ""}</p>}
        {yaml ? <pre className="max-h-[560px] overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs dark:bg-slate-800" data-testid="dify-yaml">{yaml}</pre> : null}
      </>
    ),
    ...(yaml ? { text: yaml, filename: `${appName}${original.yaml ? "" : ".repaired"}.yml`, mime: "application/x-yaml" } : {}),
  };
  return [response, jsonTab, yamlTab];
}

export default async function ResponsePage({ params, searchParams }: PageProps<"/responses/[responseId]">) {
  const { responseId } = await params;
  const user = await requirePagePermission("read", `/responses/${encodeURIComponent(responseId)}`);
  const loaded = await loadResponse(user, responseId);
  if (!loaded) notFound();
  const { detail, view } = loaded;
  const query = await searchParams;
  const initialNode = typeof query.node === "string" ? query.node : null;
  const appName = difyAppName(detail.turn.task.name, detail.turn.round);
  const graph = view.original.view ?? view.repaired.view;
  const isRepaired = view.original.view === null && view.repaired.view !== null;

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
      <VerdictSummary detail={detail} view={view} />

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

      <section aria-labelledby="source-title" className="space-y-2">
        <h2 id="source-title" className="text-lg font-semibold">
          Source
        </h2>
        <Tabs items={sourceTabs(view, appName)} label="Response source" />
      </section>

      <Conversation detail={detail} view={view} diagnostics={view.diagnostics} />
      <JudgesAndTests detail={detail} view={view} />
    </div>
  );
}
