"use client";

import { useId, useState, useTransition } from "react";
import { startResolveJudgingAction } from "@/app/actions/dify-execution";
import { EndpointOptions, StartOutcome, type StartMessage } from "@/components/dify/form-parts";
import { buttonStyles, cardStyles, inputStyles, labelStyles } from "@/components/ui/styles";

/** A run's test cases an execution left not judged, and a form that asks a resolve judge about them. */
export function RunResolveJudging({ runId, notJudged, endpoints, heading }: { runId: string; notJudged: number; endpoints: { id: string; label: string; model: string }[]; heading?: string }) {
  const id = useId();
  const [message, setMessage] = useState<StartMessage | null>(null);
  const [pending, startTransition] = useTransition();

  function submit(form: FormData) {
    setMessage(null);
    startTransition(async () => {
      const result = await startResolveJudgingAction({ runId, endpointId: String(form.get("endpointId") ?? "") });
      setMessage(result.ok ? { ok: true, text: `Started: ${result.value.cases} test case(s) to judge.`, jobId: result.value.jobId } : { ok: false, text: result.message });
    });
  }

  return (
    <form action={submit} className={`${cardStyles} space-y-3`} aria-label={heading ?? "Judge the test cases not judged"} data-testid="resolve-judging">
      <h3 className="font-medium">{heading ?? "Resolve: not judged"}</h3>
      <p className="text-sm" data-testid="resolve-not-judged">
        {notJudged} test case{notJudged === 1 ? " has" : "s have"} text outputs no LLM judge has answered: they count neither as resolved nor as failed, and
        the run has no resolve rate (nor a rank) until they are judged.
      </p>
      {endpoints.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">Add a model endpoint to judge them with.</p>
      ) : (
        <div className="flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor={`${id}-judge`} className={labelStyles}>Resolve judge</label>
            <select id={`${id}-judge`} name="endpointId" className={inputStyles} required>
              <EndpointOptions endpoints={endpoints} />
            </select>
          </div>
          <button type="submit" className={buttonStyles.primary} disabled={pending}>
            {pending ? "Starting…" : "Judge them"}
          </button>
        </div>
      )}
      <StartOutcome message={message} />
    </form>
  );
}
