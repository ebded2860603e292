"use client";

import Link from "next/link";
import { useId, useState, useTransition } from "react";
import { startJudgeJobAction } from "@/app/actions/jobs";
import { buttonStyles, cardStyles, inputStyles, labelStyles } from "@/components/ui/styles";
import { OFFICIAL_JUDGE_PARAMS, OFFICIAL_JUDGE_TIMEOUT_MS } from "@/lib/judge/identity";

export interface JudgeEndpointOption {
  id: string;
  label: string;
  model: string;
}

/** An empty field keeps the official value. */
function optionalNumber(value: FormDataEntryValue | null): number | null {
  const text = typeof value === "string" ? value.trim() : "";
  return text === "" ? null : Number(text);
}

/** "Judge this run": endpoint, stage, samples, strict, cache refresh and parameter overrides → a judge job. */
export function JudgeRunForm({
  runId,
  endpoints,
  hasResolve,
  mayManageEndpoints,
  onStarted,
}: {
  runId: string;
  endpoints: JudgeEndpointOption[];
  hasResolve: boolean;
  mayManageEndpoints: boolean;
  onStarted?: () => void;
}) {
  const id = useId();
  const [message, setMessage] = useState<{ ok: boolean; text: string; jobId?: string } | null>(null);
  const [pending, startTransition] = useTransition();

  if (endpoints.length === 0) {
    return (
      <p className="text-sm text-slate-600 dark:text-slate-400">
        No model endpoint is set up yet.{" "}
        {mayManageEndpoints ? (
          <Link href="/settings/endpoints" className="text-brand-700 underline underline-offset-2 dark:text-brand-300">Add one</Link>
        ) : (
          "Ask an admin to add one"
        )}{" "}
        to judge this run.
      </p>
    );
  }

  function submit(form: FormData) {
    setMessage(null);
    startTransition(async () => {
      const result = await startJudgeJobAction({
        runId,
        endpointId: String(form.get("endpointId") ?? ""),
        stage: form.get("stage") === "resolve" ? "resolve" : "pass",
        samples: Number(form.get("samples") ?? 1),
        strict: form.get("strict") === "on",
        refresh: form.get("refresh") === "on",
        temperature: optionalNumber(form.get("temperature")),
        maxTokens: optionalNumber(form.get("maxTokens")),
      });
      if (result.ok) {
        setMessage({ ok: true, text: `Judging ${result.value.items} item(s).`, jobId: result.value.jobId });
        onStarted?.();
      } else {
        setMessage({ ok: false, text: result.fieldErrors ? Object.values(result.fieldErrors).join(" ") : result.message });
      }
    });
  }

  return (
    <form action={submit} className={`${cardStyles} space-y-3`} aria-label="Judge this run">
      <h2 className="text-lg font-medium">Judge this run</h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Asks an endpoint the benchmark&apos;s own judge questions with the official prompts: the pass stage (step 1_4) for turns that passed steps 1_1–1_3, or the
        resolve stage for test cases with stored outputs. Replies already received are reused from the call cache. Calls send the official judge
        parameters, temperature {OFFICIAL_JUDGE_PARAMS.temperature} and max_tokens {OFFICIAL_JUDGE_PARAMS.max_tokens} (not the endpoint&apos;s defaults), unless
        you override them below, and each may take up to {OFFICIAL_JUDGE_TIMEOUT_MS / 1000} s, as the official judge&apos;s client allows reasoning judges.
      </p>
      <div className="grid gap-3 sm:grid-cols-3">
        <div>
          <label htmlFor={`${id}-endpoint`} className={labelStyles}>Endpoint</label>
          <select id={`${id}-endpoint`} name="endpointId" className={inputStyles} required>
            {endpoints.map((endpoint) => (
              <option key={endpoint.id} value={endpoint.id}>
                {endpoint.label} ({endpoint.model})
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-stage`} className={labelStyles}>Stage</label>
          <select id={`${id}-stage`} name="stage" className={inputStyles} defaultValue="pass">
            <option value="pass">Pass (step 1_4)</option>
            <option value="resolve" disabled={!hasResolve}>Resolve (test cases){hasResolve ? "" : " — no stored outputs"}</option>
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-samples`} className={labelStyles}>Samples per item</label>
          <input id={`${id}-samples`} name="samples" type="number" min={1} max={9} defaultValue={1} className={inputStyles} />
        </div>
        <div>
          <label htmlFor={`${id}-temperature`} className={labelStyles}>Temperature (official {OFFICIAL_JUDGE_PARAMS.temperature})</label>
          <input id={`${id}-temperature`} name="temperature" type="number" min={0} max={2} step="any" placeholder={String(OFFICIAL_JUDGE_PARAMS.temperature)} className={inputStyles} />
        </div>
        <div>
          <label htmlFor={`${id}-max-tokens`} className={labelStyles}>Max tokens (official {OFFICIAL_JUDGE_PARAMS.max_tokens})</label>
          <input id={`${id}-max-tokens`} name="maxTokens" type="number" min={1} step={1} placeholder={String(OFFICIAL_JUDGE_PARAMS.max_tokens)} className={inputStyles} />
        </div>
        <div className="flex flex-col justify-end gap-1 text-sm">
          <label className="flex items-center gap-2">
            <input type="checkbox" name="strict" /> Strict (re-ask malformed replies)
          </label>
          <label className="flex items-center gap-2">
            <input type="checkbox" name="refresh" /> Bypass the call cache
          </label>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className={buttonStyles.primary} disabled={pending}>
          Start judging
        </button>
        {message ? (
          <p role="status" className={`text-sm ${message.ok ? "text-slate-700 dark:text-slate-300" : "text-red-700 dark:text-red-400"}`}>
            {message.text}{" "}
            {message.jobId ? <Link href={`/jobs/${message.jobId}`} className="text-brand-700 underline underline-offset-2 dark:text-brand-300">Open the job</Link> : null}
          </p>
        ) : null}
      </div>
    </form>
  );
}
