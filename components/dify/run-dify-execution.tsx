"use client";

import Link from "next/link";
import { useId, useState, useTransition } from "react";
import { startDifyExecutionAction } from "@/app/actions/dify-execution";
import { EndpointOptions, StartOutcome, type StartMessage } from "@/components/dify/form-parts";
import { buttonStyles, cardStyles, inputStyles, labelStyles } from "@/components/ui/styles";

export interface DifyConnectionOption {
  id: string;
  label: string;
  baseUrl: string;
}

/** "Execute on Dify": a connection, the case-files directory and an optional resolve judge → a resolve job. */
export function RunDifyExecution({
  runId,
  connections,
  endpoints,
  passJudges,
  passGate,
  defaultCaseFilesDir,
  mayManageConnections,
}: {
  runId: string;
  connections: DifyConnectionOption[];
  endpoints: { id: string; label: string; model: string }[];
  /** LLM judges whose step 1_4 verdicts this run has (most turns first): one of them decides what goes to Dify. */
  passJudges: { endpointId: string; label: string; turns: number }[];
  /** Which judge decides the turns sent to Dify, in words, or why it cannot be decided. */
  passGate: string;
  defaultCaseFilesDir: string;
  mayManageConnections: boolean;
}) {
  const id = useId();
  const [message, setMessage] = useState<StartMessage | null>(null);
  const [pending, startTransition] = useTransition();

  if (connections.length === 0) {
    return (
      <p className="text-sm text-slate-600 dark:text-slate-400">
        To run this run&apos;s workflows and test cases on Dify, a Dify connection is needed.{" "}
        {mayManageConnections ? (
          <Link href="/settings/dify" className="text-brand-700 underline underline-offset-2 dark:text-brand-300">Add one</Link>
        ) : (
          "Ask an admin to add one."
        )}
      </p>
    );
  }

  function submit(form: FormData) {
    setMessage(null);
    startTransition(async () => {
      const result = await startDifyExecutionAction({
        runId,
        connectionId: String(form.get("connectionId") ?? ""),
        caseFilesDir: String(form.get("caseFilesDir") ?? ""),
        endpointId: String(form.get("endpointId") ?? ""),
        passJudgeEndpointId: String(form.get("passJudgeEndpointId") ?? ""),
      });
      setMessage(result.ok ? { ok: true, text: `Started: ${result.value.items} turn(s) to execute.`, jobId: result.value.jobId } : { ok: false, text: result.message });
    });
  }

  return (
    <form action={submit} className={`${cardStyles} space-y-3`} aria-label="Execute on Dify">
      <h3 className="font-medium">Execute on Dify</h3>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Imports the workflow of each turn the run&apos;s own pass judge passed (pass step 1_5), runs its three test cases with files from the case-files
        directory, checks the output files and asks the resolve judge. The run&apos;s case results are replaced turn by turn. Dify must have the model
        providers and tool plugins the workflows use; the start is refused, saying what is missing, when it does not.
      </p>
      <p className="text-xs" data-testid="dify-pass-gate">Turns sent to Dify: those {passGate} passed.</p>
      <div className="grid gap-3 sm:grid-cols-3">
        <div>
          <label htmlFor={`${id}-connection`} className={labelStyles}>Dify connection</label>
          <select id={`${id}-connection`} name="connectionId" className={inputStyles} required>
            {connections.map((connection) => (
              <option key={connection.id} value={connection.id}>
                {connection.label} ({connection.baseUrl})
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-cases`} className={labelStyles}>Case-files directory (on the server)</label>
          <input id={`${id}-cases`} name="caseFilesDir" className={inputStyles} required defaultValue={defaultCaseFilesDir} />
        </div>
        <div>
          <label htmlFor={`${id}-judge`} className={labelStyles}>Resolve judge</label>
          <select id={`${id}-judge`} name="endpointId" className={inputStyles} defaultValue="">
            <option value="">None: text outputs stay not judged (no resolve rate) until judged</option>
            <EndpointOptions endpoints={endpoints} />
          </select>
        </div>
      </div>
      {passJudges.length > 1 ? (
        <div>
          <label htmlFor={`${id}-pass-judge`} className={labelStyles}>Pass judge deciding the turns</label>
          <select id={`${id}-pass-judge`} name="passJudgeEndpointId" className={inputStyles} defaultValue={passJudges[0]?.endpointId}>
            {passJudges.map((judge) => (
              <option key={judge.endpointId} value={judge.endpointId}>
                {judge.label} ({judge.turns} turns judged)
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="flex items-center gap-3">
        <button type="submit" className={buttonStyles.primary} disabled={pending}>
          {pending ? "Starting…" : "Execute on Dify"}
        </button>
        <StartOutcome message={message} />
      </div>
    </form>
  );
}
