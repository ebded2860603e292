"use client";

// Creating a review queue: which judge verdicts to draw from, how many, with which seed, how many annotators per
// item, blind or reveal, and who annotates. Shows live how many stored verdicts the filter matches.

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useMemo, useState, type FormEvent, type ReactNode } from "react";
import { createQueueAction } from "@/app/actions/review";
import { buttonStyles, inputStyles, labelStyles } from "@/components/ui/styles";
import { filterQuery, type QueueFilter, type Stage, type VerdictFilter } from "@/lib/review/filter";
import { DEFAULT_ANNOTATORS_PER_ITEM, MAX_ANNOTATORS_PER_ITEM, MAX_SAMPLE_SIZE, type ReviewMode } from "@/lib/review/queue";
import type { ReviewOptions } from "@/lib/server/data/review";

function toggle(list: readonly string[], value: string): string[] {
  return list.includes(value) ? list.filter((entry) => entry !== value) : [...list, value];
}

function CheckboxGroup({ legend, hint, options, chosen, onChange }: { legend: string; hint: string; options: readonly { value: string; label: ReactNode }[]; chosen: readonly string[]; onChange: (next: string[]) => void }) {
  return (
    <fieldset>
      <legend className={labelStyles}>{legend}</legend>
      <p className="text-xs text-slate-500">{hint}</p>
      {options.length === 0 ? <p className="mt-1 text-sm italic text-slate-500">None available.</p> : null}
      <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
        {options.map((option) => (
          <label key={option.value} className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={chosen.includes(option.value)} onChange={() => onChange(toggle(chosen, option.value))} />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

async function fetchMatching(filter: QueueFilter): Promise<number> {
  const response = await fetch(`/api/review/matching?${new URLSearchParams(filterQuery(filter)).toString()}`, { cache: "no-store" });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return ((await response.json()) as { matching: number }).matching;
}

export function QueueForm({ options, currentUserId }: { options: ReviewOptions; currentUserId: string }) {
  const router = useRouter();
  const ids = useId();
  const [benchmarkId, setBenchmarkId] = useState(options.benchmarks[0]?.id ?? "");
  const [stage, setStage] = useState<Stage>("pass");
  const [judges, setJudges] = useState<string[]>([]);
  const [models, setModels] = useState<string[]>([]);
  const [domains, setDomains] = useState<string[]>([]);
  const [verdict, setVerdict] = useState<VerdictFilter>("any");
  const [disagreeWithRule, setDisagreeWithRule] = useState(false);
  const [sampleSize, setSampleSize] = useState("50");
  const [seed, setSeed] = useState("1");
  const [annotatorsPerItem, setAnnotatorsPerItem] = useState(String(DEFAULT_ANNOTATORS_PER_ITEM));
  const [mode, setMode] = useState<ReviewMode>("blind");
  const [annotatorIds, setAnnotatorIds] = useState<string[]>([]);
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  const benchmark = options.benchmarks.find((entry) => entry.id === benchmarkId);
  const stageJudges = (benchmark?.judges ?? []).filter((entry) => entry.stage === stage);
  const filter: QueueFilter = useMemo(
    () => ({ benchmarkId, stage, judges, models, domains, verdict, disagreeWithRule: stage === "pass" && disagreeWithRule }),
    [benchmarkId, stage, judges, models, domains, verdict, disagreeWithRule],
  );
  const matching = useQuery({ queryKey: ["review-matching", filter], queryFn: () => fetchMatching(filter), enabled: benchmarkId !== "", staleTime: 0 });
  const size = Number(sampleSize);

  function changeBenchmark(id: string) {
    setBenchmarkId(id);
    setJudges([]);
    setModels([]);
    setDomains([]);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setFieldErrors({});
    setPending(true);
    try {
      const result = await createQueueAction({ filter, sampleSize, seed, annotatorsPerItem, mode, annotatorIds, name });
      if (result.ok) {
        router.push(`/review/${result.value.queueId}/manage?created=${result.value.items}`);
        return;
      }
      setError(result.message);
      setFieldErrors(result.fieldErrors ?? {});
    } catch {
      setError("The server could not be reached. Try again.");
    } finally {
      setPending(false);
    }
  }

  const fieldError = (key: string) =>
    fieldErrors[key] ? (
      <p className="mt-1 text-xs text-red-700 dark:text-red-400" id={`${ids}-${key}-error`}>
        {fieldErrors[key]}
      </p>
    ) : null;

  return (
    <form onSubmit={onSubmit} className="max-w-3xl space-y-6" aria-label="New review queue">
      <section className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900" aria-labelledby={`${ids}-what`}>
        <h2 id={`${ids}-what`} className="font-medium">
          Which judge verdicts
        </h2>
        <div>
          <label htmlFor={`${ids}-benchmark`} className={labelStyles}>
            Benchmark
          </label>
          <select id={`${ids}-benchmark`} className={inputStyles} value={benchmarkId} onChange={(event) => changeBenchmark(event.target.value)}>
            {options.benchmarks.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.name}
              </option>
            ))}
          </select>
        </div>
        <fieldset>
          <legend className={labelStyles}>Stage</legend>
          <div className="mt-2 flex gap-4">
            {(["pass", "resolve"] as const).map((value) => (
              <label key={value} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="stage"
                  value={value}
                  checked={stage === value}
                  onChange={() => {
                    setStage(value);
                    setJudges([]);
                  }}
                />
                {value === "pass" ? "Pass stage (node consistency judge)" : "Resolve stage (output judge)"}
              </label>
            ))}
          </div>
        </fieldset>
        <CheckboxGroup
          legend="Judges"
          hint="None ticked: every judge."
          options={stageJudges.map((entry) => ({ value: entry.judge, label: `${entry.judge} (${entry.count})` }))}
          chosen={judges}
          onChange={setJudges}
        />
        <CheckboxGroup legend="Models" hint="None ticked: every model." options={(benchmark?.models ?? []).map((value) => ({ value, label: value }))} chosen={models} onChange={setModels} />
        <CheckboxGroup legend="Domains" hint="None ticked: every domain." options={(benchmark?.domains ?? []).map((value) => ({ value, label: value }))} chosen={domains} onChange={setDomains} />
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor={`${ids}-verdict`} className={labelStyles}>
              Judge&apos;s verdict
            </label>
            <select id={`${ids}-verdict`} className={inputStyles} value={verdict} onChange={(event) => setVerdict(event.target.value as VerdictFilter)}>
              <option value="any">Any</option>
              <option value="pass">Pass only</option>
              <option value="fail">Fail only</option>
            </select>
          </div>
          <label className="flex items-center gap-2 self-end text-sm">
            <input type="checkbox" checked={stage === "pass" && disagreeWithRule} disabled={stage !== "pass"} onChange={(event) => setDisagreeWithRule(event.target.checked)} />
            Only where the judge and the rule judge disagree
          </label>
        </div>
        <p role="status" aria-live="polite" className="text-sm" data-testid="matching-count">
          {matching.isPending
            ? "Counting matching verdicts…"
            : matching.isError
              ? "The matching verdicts could not be counted."
              : `${matching.data} judge verdict${matching.data === 1 ? "" : "s"} match${matching.data === 1 ? "es" : ""}; the queue will have ${Math.min(matching.data, Number.isFinite(size) ? size : 0)} item${Math.min(matching.data, size) === 1 ? "" : "s"}.`}
        </p>
        {fieldError("filter")}
      </section>

      <section className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900" aria-labelledby={`${ids}-how`}>
        <h2 id={`${ids}-how`} className="font-medium">
          Sample and review
        </h2>
        <div className="grid gap-4 sm:grid-cols-3">
          <div>
            <label htmlFor={`${ids}-size`} className={labelStyles}>
              Sample size
            </label>
            <input id={`${ids}-size`} className={inputStyles} type="number" min={1} max={MAX_SAMPLE_SIZE} required value={sampleSize} onChange={(event) => setSampleSize(event.target.value)} />
            {fieldError("sampleSize")}
          </div>
          <div>
            <label htmlFor={`${ids}-seed`} className={labelStyles}>
              Seed
            </label>
            <input id={`${ids}-seed`} className={inputStyles} required maxLength={100} value={seed} onChange={(event) => setSeed(event.target.value)} aria-describedby={`${ids}-seed-hint`} />
            <p id={`${ids}-seed-hint`} className="mt-1 text-xs text-slate-500">
              The same filter, data and seed draw the same items.
            </p>
            {fieldError("seed")}
          </div>
          <div>
            <label htmlFor={`${ids}-per-item`} className={labelStyles}>
              Annotators per item
            </label>
            <input id={`${ids}-per-item`} className={inputStyles} type="number" min={1} max={MAX_ANNOTATORS_PER_ITEM} required value={annotatorsPerItem} onChange={(event) => setAnnotatorsPerItem(event.target.value)} />
            {fieldError("annotatorsPerItem")}
          </div>
        </div>
        <fieldset>
          <legend className={labelStyles}>Mode</legend>
          <div className="mt-2 space-y-1">
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name="mode" value="blind" checked={mode === "blind"} onChange={() => setMode("blind")} />
              Blind: annotators give their own verdict before the judge&apos;s verdict and reason are shown
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name="mode" value="reveal" checked={mode === "reveal"} onChange={() => setMode("reveal")} />
              Reveal: annotators see the judge&apos;s verdict and reason and say whether it is correct
            </label>
          </div>
        </fieldset>
        <CheckboxGroup
          legend="Annotators"
          hint="Users who may vote (annotators, researchers, admins). You can assign more later."
          options={options.annotators.map((user) => ({ value: user.id, label: `${user.name ?? user.email}${user.id === currentUserId ? " (me)" : ""} · ${user.role}` }))}
          chosen={annotatorIds}
          onChange={setAnnotatorIds}
        />
        {fieldError("annotatorIds")}
        <div>
          <label htmlFor={`${ids}-name`} className={labelStyles}>
            Name <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <input id={`${ids}-name`} className={inputStyles} maxLength={200} value={name} onChange={(event) => setName(event.target.value)} placeholder="Described from the filter when empty" />
        </div>
      </section>

      {error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <button type="submit" className={buttonStyles.primary} disabled={pending || !benchmarkId}>
        {pending ? "Creating…" : "Create queue"}
      </button>
    </form>
  );
}
