"use client";
// Picks what a model diff shows: the turn and the two runs (a GET form, so it works without scripts too), with
// previous / next turn and swap links that keep the choice.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { buttonStyles, inputStyles, labelStyles } from "@/components/ui/styles";
import { DIFF_ROUTES, modelDiffHref } from "@/lib/diff/links";

export interface ModelPickerTurn {
  id: string;
  key: string;
  task: string;
  round: number;
}

export interface ModelPickerRun {
  id: string;
  label: string;
  model: { name: string; displayName: string };
  responseId: string | null;
}

export interface ModelPickerProps {
  turns: readonly ModelPickerTurn[];
  turnKey: string;
  runs: readonly ModelPickerRun[];
  a: string | null;
  b: string | null;
}

function RunSelect({ id, name, label, runs, value, onChange }: { id: string; name: string; label: string; runs: readonly ModelPickerRun[]; value: string; onChange: (value: string) => void }) {
  return (
    <div className="min-w-60">
      <label htmlFor={id} className={labelStyles}>
        {label}
      </label>
      <select id={id} name={name} value={value} onChange={(event) => onChange(event.target.value)} className={inputStyles}>
        {runs.map((run) => (
          <option key={run.id} value={run.id}>
            {run.model.displayName} · {run.label}
            {run.responseId ? "" : " (no response)"}
          </option>
        ))}
      </select>
    </div>
  );
}

export function ModelPicker({ turns, turnKey, runs, a, b }: ModelPickerProps) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [turn, setTurn] = useState(turnKey);
  const [runA, setRunA] = useState(a ?? runs[0]?.id ?? "");
  const [runB, setRunB] = useState(b ?? runs[1]?.id ?? runs[0]?.id ?? "");
  const byTask = new Map<string, ModelPickerTurn[]>();
  for (const t of turns) byTask.set(t.task, [...(byTask.get(t.task) ?? []), t]);
  const at = turns.findIndex((t) => t.key === turnKey);
  const previous = at > 0 ? turns[at - 1] : undefined;
  const next = at >= 0 ? turns[at + 1] : undefined;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    startTransition(() => router.push(modelDiffHref({ turn, a: runA, b: runB }), { scroll: false }));
  };

  return (
    <div className="space-y-2" data-testid="model-picker">
      <form method="get" action={DIFF_ROUTES.models} onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <div className="min-w-56">
          <label htmlFor="diff-turn" className={labelStyles}>
            Turn
          </label>
          <select id="diff-turn" name="turn" value={turn} onChange={(event) => setTurn(event.target.value)} className={inputStyles}>
            {[...byTask].map(([task, list]) => (
              <optgroup key={task} label={task}>
                {list.map((t) => (
                  <option key={t.id} value={t.key}>
                    {t.task} round {t.round}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
        <RunSelect id="diff-a" name="a" label="A (left)" runs={runs} value={runA} onChange={setRunA} />
        <RunSelect id="diff-b" name="b" label="B (right)" runs={runs} value={runB} onChange={setRunB} />
        <button type="submit" className={buttonStyles.primary}>
          Compare
        </button>
        <span role="status" aria-live="polite" className="text-xs text-slate-600 dark:text-slate-400">
          {pending ? "Loading…" : ""}
        </span>
      </form>
      {a && b ? (
        <nav aria-label="Other comparisons" className="flex flex-wrap gap-3 text-sm">
          {previous ? (
            <Link href={modelDiffHref({ turn: previous.key, a, b })} className="text-brand-700 underline underline-offset-2 dark:text-brand-300" rel="prev">
              ← {previous.task} round {previous.round}
            </Link>
          ) : null}
          {next ? (
            <Link href={modelDiffHref({ turn: next.key, a, b })} className="text-brand-700 underline underline-offset-2 dark:text-brand-300" rel="next">
              {next.task} round {next.round} →
            </Link>
          ) : null}
          <Link href={modelDiffHref({ turn: turnKey, a: b, b: a })} className="text-brand-700 underline underline-offset-2 dark:text-brand-300">
            Swap A and B
          </Link>
        </nav>
      ) : null}
    </div>
  );
}
