"use client";
// The ordered change list of a diff with its counts per kind and previous / next buttons (n / p on the keyboard,
// handled by the page). Choosing a change centres it on the graphs and shows its details.
import { useEffect, useRef } from "react";
import { Badge } from "@/components/ui/badge";
import { buttonStyles } from "@/components/ui/styles";
import type { DiffChange } from "@/lib/diff/types";
import { kindTone, type ChangeGroupCount } from "@/lib/diff-view/groups";

const TONE_DOT: Readonly<Record<string, string>> = {
  good: "bg-emerald-600",
  bad: "bg-red-600",
  warn: "bg-amber-500",
  info: "bg-sky-600",
  neutral: "bg-slate-500",
};

export function ChangeCounts({ counts, total }: { counts: readonly ChangeGroupCount[]; total: number }) {
  if (total === 0) return null;
  return (
    <dl className="flex flex-wrap gap-x-5 gap-y-2 text-sm" data-testid="change-counts">
      {counts.map((group) => (
        <div key={group.id} className="flex flex-wrap items-center gap-1.5" data-testid="change-group" data-group={group.id}>
          <dt className="font-medium">
            {group.label} <span className="tabular-nums text-slate-500">({group.total})</span>:
          </dt>
          {group.kinds.map((entry) => (
            <dd key={entry.kind} data-testid="change-count" data-kind={entry.kind} data-count={entry.count}>
              <Badge tone={entry.tone}>
                <span className="tabular-nums">{entry.count}</span>&nbsp;{entry.label}
              </Badge>
            </dd>
          ))}
        </div>
      ))}
    </dl>
  );
}

export interface ChangeListProps {
  changes: readonly DiffChange[];
  current: number | null;
  onChoose: (index: number) => void;
  onStep: (delta: -1 | 1) => void;
}

export function ChangeList({ changes, current, onChoose, onStep }: ChangeListProps) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (current === null) return;
    list.current?.querySelector<HTMLElement>(`[data-index="${current}"]`)?.scrollIntoView({ block: "nearest" });
  }, [current]);
  const atStart = current === 0;
  const atEnd = current === changes.length - 1;
  return (
    <section aria-labelledby="change-list-title" className="flex min-h-0 flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="change-list-title" className="text-base font-semibold">
          Changes <span className="font-normal tabular-nums text-slate-500" data-testid="change-total">({changes.length})</span>
        </h2>
        <div className="flex items-center gap-2">
          <span className="text-xs text-slate-500" aria-live="polite" data-testid="change-position">
            {current === null ? `${changes.length} in all` : `${current + 1} / ${changes.length}`}
          </span>
          <button type="button" className={buttonStyles.secondary} onClick={() => onStep(-1)} disabled={changes.length === 0 || atStart} aria-keyshortcuts="p k" title="Previous change (p)">
            ← Previous
          </button>
          <button type="button" className={buttonStyles.secondary} onClick={() => onStep(1)} disabled={changes.length === 0 || atEnd} aria-keyshortcuts="n j" title="Next change (n)">
            Next →
          </button>
        </div>
      </div>
      {changes.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No changes: the two workflows are the same (up to node ids and order).</p>
      ) : (
        <ol ref={list} aria-label="Changes, in workflow order" className="max-h-[26rem] space-y-0.5 overflow-y-auto pr-1" data-testid="change-list">
          {changes.map((change, index) => {
            const active = index === current;
            return (
              <li key={change.id}>
                <button
                  type="button"
                  data-index={index}
                  data-kind={change.kind}
                  data-testid="change-item"
                  aria-current={active ? "true" : undefined}
                  onClick={() => onChoose(index)}
                  className={`flex w-full items-start gap-2 rounded-md px-2 py-1 text-left text-sm ${active ? "bg-brand-50 ring-1 ring-brand-500 dark:bg-slate-800" : "hover:bg-slate-100 dark:hover:bg-slate-800"}`}
                >
                  <span aria-hidden="true" className={`mt-1.5 inline-block h-2 w-2 shrink-0 rounded-full ${TONE_DOT[kindTone(change.kind)]}`} />
                  <span className="min-w-0 break-words">{change.description}</span>
                </button>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
