"use client";
// "New evaluation": benchmark, model endpoint, mode, judge, optional Dify execution, number of runs and generation
// overrides → the evaluation service starts the runs, and the browser goes to the evaluation's live page.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { startEvaluationAction } from "@/app/actions/evaluations";
import { buttonStyles, cardStyles, inputStyles, labelStyles } from "@/components/ui/styles";
import { MODE_CHOICES } from "./mode-choices";

export interface ChoiceOption {
  id: string;
  label: string;
  detail?: string;
}

type JudgeKind = "none" | "rule" | "llm";

function optionalNumber(value: FormDataEntryValue | null): number | undefined {
  const text = String(value ?? "").trim();
  return text === "" ? undefined : Number(text);
}

export function NewEvaluationForm({
  benchmarks,
  endpoints,
  difyConnections,
  maxRuns,
  mayManageEndpoints,
}: {
  benchmarks: ChoiceOption[];
  endpoints: ChoiceOption[];
  difyConnections: ChoiceOption[];
  maxRuns: number;
  mayManageEndpoints: boolean;
}) {
  const id = useId();
  const router = useRouter();
  const [judgeKind, setJudgeKind] = useState<JudgeKind>("rule");
  const [error, setError] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const [pending, startTransition] = useTransition();

  if (endpoints.length === 0) {
    return (
      <section className={cardStyles} aria-label="No model endpoint" data-testid="no-endpoints">
        <h2 className="text-lg font-medium">No model endpoint yet</h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          An evaluation asks a model endpoint (an OpenAI-compatible server) to answer the benchmark.{" "}
          {mayManageEndpoints ? (
            <Link href="/settings/endpoints" className="text-brand-700 underline underline-offset-2 dark:text-brand-300">
              Add an endpoint
            </Link>
          ) : (
            <>
              Ask an admin to add one under{" "}
              <Link href="/settings/endpoints" className="text-brand-700 underline underline-offset-2 dark:text-brand-300">
                Model endpoints
              </Link>
            </>
          )}
          , then come back.
        </p>
      </section>
    );
  }
  if (benchmarks.length === 0) {
    return (
      <section className={cardStyles} aria-label="No benchmark">
        <h2 className="text-lg font-medium">No benchmark yet</h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          <Link href="/import" className="text-brand-700 underline underline-offset-2 dark:text-brand-300">
            Import the benchmark
          </Link>{" "}
          first: an evaluation answers its tasks.
        </p>
      </section>
    );
  }

  function submit(form: FormData) {
    setError(null);
    const judgeIds = form.getAll("judgeEndpointIds").map(String);
    const judge =
      judgeKind === "llm"
        ? { kind: "llm" as const, endpointIds: judgeIds, samples: optionalNumber(form.get("judgeSamples")) ?? 1 }
        : { kind: judgeKind };
    const temperature = optionalNumber(form.get("temperature"));
    const maxTokens = optionalNumber(form.get("maxTokens"));
    const difyConnectionId = String(form.get("difyConnectionId") ?? "");
    const caseFilesDir = String(form.get("caseFilesDir") ?? "").trim();
    startTransition(async () => {
      const result = await startEvaluationAction({
        benchmarkId: String(form.get("benchmarkId") ?? ""),
        endpointId: String(form.get("endpointId") ?? ""),
        mode: String(form.get("mode") ?? "zero-shot") as (typeof MODE_CHOICES)[number]["value"],
        judge,
        ...(difyConnectionId ? { difyConnectionId } : {}),
        ...(caseFilesDir ? { caseFilesDir } : {}),
        runCount: optionalNumber(form.get("runCount")) ?? 3,
        params: { ...(temperature !== undefined ? { temperature } : {}), ...(maxTokens !== undefined ? { maxTokens } : {}) },
      });
      if (result.ok) router.push(`/evaluations/${encodeURIComponent(result.value.evaluationId)}`);
      else setError({ message: result.message, fields: result.fieldErrors ?? {} });
    });
  }

  const fieldError = (name: string) =>
    error?.fields[name] ? (
      <p className="mt-1 text-xs text-red-700 dark:text-red-400" id={`${id}-${name}-error`}>
        {error.fields[name]}
      </p>
    ) : null;

  return (
    <form action={submit} className="max-w-3xl space-y-6" aria-label="New evaluation">
      <section className={`${cardStyles} grid gap-4 sm:grid-cols-2`}>
        <div>
          <label htmlFor={`${id}-benchmark`} className={labelStyles}>
            Benchmark
          </label>
          <select id={`${id}-benchmark`} name="benchmarkId" className={inputStyles} required>
            {benchmarks.map((benchmark) => (
              <option key={benchmark.id} value={benchmark.id}>
                {benchmark.label}
                {benchmark.detail ? ` (${benchmark.detail})` : ""}
              </option>
            ))}
          </select>
          {fieldError("benchmarkId")}
        </div>
        <div>
          <label htmlFor={`${id}-endpoint`} className={labelStyles}>
            Model endpoint
          </label>
          <select id={`${id}-endpoint`} name="endpointId" className={inputStyles} required>
            {endpoints.map((endpoint) => (
              <option key={endpoint.id} value={endpoint.id}>
                {endpoint.label}
                {endpoint.detail ? ` (${endpoint.detail})` : ""}
              </option>
            ))}
          </select>
          <p className="mt-1 text-xs text-slate-500">
            The model that answers. Endpoints are set up under{" "}
            <Link href="/settings/endpoints" className="underline">
              Model endpoints
            </Link>
            .
          </p>
          {fieldError("endpointId")}
        </div>
      </section>

      <fieldset className={`${cardStyles} space-y-2`}>
        <legend className="px-1 text-sm font-medium">Mode</legend>
        {MODE_CHOICES.map((mode, index) => (
          <label key={mode.value} className="flex items-start gap-2 text-sm">
            <input type="radio" name="mode" value={mode.value} defaultChecked={index === 0} className="mt-1" />
            <span>
              <span className="font-medium">{mode.label}</span>
              <span className="block text-slate-600 dark:text-slate-400">{mode.description}</span>
            </span>
          </label>
        ))}
        {fieldError("mode")}
      </fieldset>

      <fieldset className={`${cardStyles} space-y-2`}>
        <legend className="px-1 text-sm font-medium">Judge (step 1_4)</legend>
        {(
          [
            { kind: "none", label: "None", description: "No LLM judge: the runs' figures are steps 1_1–1_3 and our rule judge, labelled “rule judge (not the official LLM judge)”." },
            { kind: "rule", label: "Rule judge", description: "Our rule judge on every turn that reaches step 1_4, as each turn arrives." },
            { kind: "llm", label: "LLM judge or panel", description: "One endpoint as judge, or several as a panel (each member's majority over its samples, then the members'; ties fail), with the official temperature 0 and max_tokens 8192. Its verdicts make the runs' figures everywhere." },
          ] as const
        ).map((choice) => (
          <label key={choice.kind} className="flex items-start gap-2 text-sm">
            <input type="radio" name="judgeKind" value={choice.kind} checked={judgeKind === choice.kind} onChange={() => setJudgeKind(choice.kind)} className="mt-1" />
            <span>
              <span className="font-medium">{choice.label}</span>
              <span className="block text-slate-600 dark:text-slate-400">{choice.description}</span>
            </span>
          </label>
        ))}
        {judgeKind === "llm" ? (
          <div className="ml-6 space-y-2 border-l border-slate-200 pl-4 dark:border-slate-700">
            <p className="text-sm font-medium" id={`${id}-judges`}>
              Judge endpoints
            </p>
            <div role="group" aria-labelledby={`${id}-judges`} className="space-y-1">
              {endpoints.map((endpoint) => (
                <label key={endpoint.id} className="flex items-center gap-2 text-sm">
                  <input type="checkbox" name="judgeEndpointIds" value={endpoint.id} />
                  {endpoint.label}
                  {endpoint.detail ? <span className="text-slate-500">({endpoint.detail})</span> : null}
                </label>
              ))}
            </div>
            <label className={`${labelStyles} max-w-40`}>
              Samples per turn
              <input type="number" name="judgeSamples" min={1} max={9} defaultValue={1} className={inputStyles} />
            </label>
            {fieldError("judge.endpointIds")}
          </div>
        ) : null}
      </fieldset>

      <fieldset className={`${cardStyles} grid gap-4 sm:grid-cols-2`}>
        <legend className="px-1 text-sm font-medium">Dify execution (optional)</legend>
        <div>
          <label htmlFor={`${id}-dify`} className={labelStyles}>
            Dify connection
          </label>
          <select id={`${id}-dify`} name="difyConnectionId" className={inputStyles} defaultValue="">
            <option value="">None: no step 1_5 or resolve stage</option>
            {difyConnections.map((connection) => (
              <option key={connection.id} value={connection.id}>
                {connection.label}
              </option>
            ))}
          </select>
          {difyConnections.length === 0 ? <p className="mt-1 text-xs text-slate-500">No Dify connection is configured (an admin adds them).</p> : null}
          <p className="mt-1 text-xs text-slate-500">
            The evaluation&apos;s judge also judges the test cases; with the rule judge or none, cases with text outputs stay not judged (no resolve
            rate) until a resolve judge answers them from the run&apos;s page.
          </p>
          {fieldError("difyConnectionId")}
        </div>
        <div>
          <label htmlFor={`${id}-case-files`} className={labelStyles}>
            Case-files directory
          </label>
          <input id={`${id}-case-files`} name="caseFilesDir" className={inputStyles} placeholder="the benchmark's case_files/" />
          <p className="mt-1 text-xs text-slate-500">The test cases&apos; input files, read when the tests run on the server.</p>
          {fieldError("caseFilesDir")}
        </div>
      </fieldset>

      <fieldset className={`${cardStyles} grid gap-4 sm:grid-cols-3`}>
        <legend className="px-1 text-sm font-medium">Runs and parameters</legend>
        <div>
          <label htmlFor={`${id}-runs`} className={labelStyles}>
            Number of runs
          </label>
          <input id={`${id}-runs`} type="number" name="runCount" min={1} max={maxRuns} defaultValue={Math.min(3, maxRuns)} className={inputStyles} required />
          <p className="mt-1 text-xs text-slate-500">The paper averages three runs.</p>
          {fieldError("runCount")}
        </div>
        <div>
          <label htmlFor={`${id}-temperature`} className={labelStyles}>
            Temperature
          </label>
          <input id={`${id}-temperature`} type="number" name="temperature" min={0} max={2} step={0.1} placeholder="0.7" className={inputStyles} />
          {fieldError("params.temperature")}
        </div>
        <div>
          <label htmlFor={`${id}-max-tokens`} className={labelStyles}>
            Max tokens
          </label>
          <input id={`${id}-max-tokens`} type="number" name="maxTokens" min={1} step={1} placeholder="32768" className={inputStyles} />
          {fieldError("params.maxTokens")}
        </div>
        <p className="text-xs text-slate-500 sm:col-span-3">Empty fields keep the official defaults (temperature 0.7, max tokens 32768).</p>
      </fieldset>

      {error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error.message}
          {Object.keys(error.fields).length > 0 ? ` ${Object.entries(error.fields).map(([field, message]) => `${field}: ${message}`).join("; ")}` : ""}
        </p>
      ) : null}
      <button type="submit" className={buttonStyles.primary} disabled={pending}>
        {pending ? "Starting…" : "Start the evaluation"}
      </button>
    </form>
  );
}
