"use client";
// "New pairwise comparison": candidate and baseline runs, a judge or panel of endpoints, samples, the inconsistency
// policy, an optional order seed (to reproduce an earlier comparison's orders) and the length threshold.
import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { startPairwiseAction } from "@/app/actions/pairwise";
import { buttonStyles, cardStyles, inputStyles, labelStyles } from "@/components/ui/styles";

export interface Choice {
  id: string;
  label: string;
}

function optionalNumber(value: FormDataEntryValue | null): number | null {
  const text = String(value ?? "").trim();
  return text === "" ? null : Number(text);
}

export function NewComparisonForm({ runs, endpoints, defaults }: { runs: Choice[]; endpoints: Choice[]; defaults: { candidate: string; baseline: string; seed: string } }) {
  const id = useId();
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function submit(form: FormData) {
    startTransition(async () => {
      const outcome = await startPairwiseAction({
        candidateRunId: String(form.get("candidate") ?? ""),
        baselineRunId: String(form.get("baseline") ?? ""),
        endpointIds: form.getAll("judge").map(String),
        samples: Number(form.get("samples") ?? 1),
        policy: form.get("policy") === "rerun" ? "rerun" : "tie",
        seed: optionalNumber(form.get("seed")),
        lengthThreshold: optionalNumber(form.get("lengthThreshold")),
      });
      if (outcome.ok) router.push(`/pairwise/${outcome.value.comparisonId}`);
      else setError(outcome.fieldErrors ? `${outcome.message} ${Object.entries(outcome.fieldErrors).map(([field, message]) => `${field}: ${message}`).join("; ")}` : outcome.message);
    });
  }

  return (
    <form action={submit} className={`${cardStyles} grid gap-4 sm:grid-cols-2`} aria-label="Start a pairwise comparison">
      {(["candidate", "baseline"] as const).map((side) => (
        <label key={side} className={labelStyles}>
          {side === "candidate" ? "Candidate run" : "Baseline run"}
          <select name={side} required defaultValue={defaults[side]} className={inputStyles}>
            <option value="">Choose a run…</option>
            {runs.map((run) => (
              <option key={run.id} value={run.id}>{run.label}</option>
            ))}
          </select>
        </label>
      ))}
      <fieldset className="sm:col-span-2">
        <legend className={labelStyles}>Judge (one endpoint) or panel (several)</legend>
        {endpoints.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">No model endpoint yet: an admin adds one under Settings › Model endpoints.</p>
        ) : (
          <div className="mt-1 flex flex-wrap gap-4">
            {endpoints.map((endpoint) => (
              <label key={endpoint.id} className="flex items-center gap-2 text-sm">
                <input type="checkbox" name="judge" value={endpoint.id} /> {endpoint.label}
              </label>
            ))}
          </div>
        )}
      </fieldset>
      <label className={labelStyles} htmlFor={`${id}-samples`}>
        Samples per comparison
        <input id={`${id}-samples`} name="samples" type="number" min={1} max={5} defaultValue={1} className={inputStyles} />
      </label>
      <label className={labelStyles}>
        When the two orders disagree
        <select name="policy" defaultValue="tie" className={inputStyles}>
          <option value="tie">count a tie</option>
          <option value="rerun">ask once more, then a tie</option>
        </select>
      </label>
      <label className={labelStyles} htmlFor={`${id}-seed`}>
        Order seed (empty: a new one, recorded)
        <input id={`${id}-seed`} name="seed" type="number" min={0} max={2147483647} defaultValue={defaults.seed} className={inputStyles} />
      </label>
      <label className={labelStyles} htmlFor={`${id}-length`}>
        Length flag above this share of wins to the longer answer
        <input id={`${id}-length`} name="lengthThreshold" type="number" min={0.5} max={1} step={0.05} defaultValue={0.7} className={inputStyles} />
      </label>
      <div className="sm:col-span-2">
        <button type="submit" className={buttonStyles.primary} disabled={pending || endpoints.length === 0}>{pending ? "Starting…" : "Start comparison"}</button>
        {error ? <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400" data-testid="pairwise-error">{error}</p> : null}
      </div>
    </form>
  );
}
