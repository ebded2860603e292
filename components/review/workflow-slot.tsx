"use client";
// The workflow on the review pages: the graph (the viewer's canvas, without our diagnostics so annotators judge
// the judge, not our checks) and the exact JSON the judge parsed, pretty-printed, as two tabs.
import { useMemo, type KeyboardEvent } from "react";
import { WorkflowCanvas } from "@/components/viewer/workflow-canvas";
import { canvasHeightFor } from "@/lib/viewer/viewport";
import { Tabs } from "@/components/ui/tabs";
import { prettyWorkflow } from "@/lib/review/judge-inputs";
import { buildWorkflowView } from "@/lib/viewer/model";
import { layoutWorkflowView } from "@/lib/viewer/layout";
import { parsePyJson } from "@/lib/workflow/json-text";

export interface WorkflowSlotProps {
  /** The workflow string exactly as stored on the response (what the pass-stage judge parsed). */
  workflow: string | null;
  /** Heading of the slot. */
  label?: string;
}

// Keys pressed inside the graph move between its nodes; they must not reach the review page's shortcuts.
const keepKeysInside = (event: KeyboardEvent) => event.stopPropagation();

export function WorkflowSlot({ workflow, label = "Workflow" }: WorkflowSlotProps) {
  const pretty = prettyWorkflow(workflow);
  const view = useMemo(() => {
    if (!workflow) return null;
    const parsed = parsePyJson(workflow);
    if (!parsed.ok) return null;
    const built = buildWorkflowView({ workflow: parsed.value });
    return built.drawable ? layoutWorkflowView(built) : null;
  }, [workflow]);

  const jsonPanel = (
    <>
      {!pretty.ok ? <p className="pb-2 text-xs text-amber-700 dark:text-amber-400">{pretty.problem}</p> : null}
      {pretty.text ? (
        <pre tabIndex={0} className="max-h-[28rem] overflow-auto font-mono text-xs leading-relaxed">
          {pretty.text}
        </pre>
      ) : null}
    </>
  );

  return (
    <section aria-label={label} data-testid="workflow-slot" className="rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <h3 className="border-b border-slate-200 px-4 py-2 text-sm font-semibold dark:border-slate-800">{label}</h3>
      <div className="p-3">
        {view ? (
          <Tabs
            label={`${label} views`}
            items={[
              {
                id: "graph",
                label: "Graph",
                content: (
                  <div onKeyDown={keepKeysInside}>
                    <WorkflowCanvas view={view} label={`${label} graph`} height={canvasHeightFor(view.bounds, 360, 560)} minimap={false} />
                  </div>
                ),
              },
              { id: "json", label: "JSON", content: jsonPanel, text: pretty.text || undefined },
            ]}
          />
        ) : (
          jsonPanel
        )}
      </div>
    </section>
  );
}
