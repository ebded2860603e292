// The slot where the review pages show a response's workflow. For now: the workflow JSON pretty-printed. The
// React Flow canvas (components/workflow/…, built on another branch) replaces the body of this component; keep the
// props (`workflow`: the raw workflow string as stored, `label`) so the review pages need no change when it lands.
import { prettyWorkflow } from "@/lib/review/judge-inputs";

export interface WorkflowSlotProps {
  /** The workflow string exactly as stored on the response (what the pass-stage judge parsed). */
  workflow: string | null;
  /** Heading of the slot. */
  label?: string;
}

export function WorkflowSlot({ workflow, label = "Workflow" }: WorkflowSlotProps) {
  const pretty = prettyWorkflow(workflow);
  return (
    <section aria-label={label} data-testid="workflow-slot" className="rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <h3 className="border-b border-slate-200 px-4 py-2 text-sm font-semibold dark:border-slate-800">{label}</h3>
      {!pretty.ok ? <p className="px-4 pt-2 text-xs text-amber-700 dark:text-amber-400">{pretty.problem}</p> : null}
      {pretty.text ? (
        <pre tabIndex={0} className="max-h-[28rem] overflow-auto px-4 py-3 font-mono text-xs leading-relaxed">
          {pretty.text}
        </pre>
      ) : null}
    </section>
  );
}
