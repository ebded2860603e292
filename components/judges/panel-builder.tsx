"use client";

// Picks judges for a panel (decided by majority) and links to the leaderboard and the comparison as judged by it.
import Link from "next/link";
import { useState } from "react";
import { buttonStyles } from "@/components/ui/styles";

export function PanelBuilder({ judges, benchmark }: { judges: readonly string[]; benchmark: string }) {
  const [chosen, setChosen] = useState<string[]>([]);
  const value = chosen.length === 1 ? chosen[0]! : `panel:${[...chosen].sort().join(",")}`;
  const query = (extra: Record<string, string>) => `?${new URLSearchParams({ ...(benchmark ? { benchmark } : {}), ...extra })}`;
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">Judges on the panel</legend>
      <div className="flex flex-wrap gap-3">
        {judges.map((judge) => (
          <label key={judge} className="flex items-center gap-1 text-sm">
            <input
              type="checkbox"
              checked={chosen.includes(judge)}
              onChange={(event) => setChosen((current) => (event.target.checked ? [...current, judge] : current.filter((entry) => entry !== judge)))}
            />
            {judge}
          </label>
        ))}
      </div>
      {chosen.length ? (
        <div className="flex flex-wrap gap-2">
          <Link href={`/${query({ judge: value })}`} className={buttonStyles.secondary} data-testid="panel-leaderboard">
            Leaderboard judged by {chosen.length === 1 ? value : `this panel of ${chosen.length}`}
          </Link>
          <Link href={`/judges/compare${query({ a: value, b: "recorded" })}`} className={buttonStyles.secondary}>
            Compare with the recorded judge
          </Link>
        </div>
      ) : (
        <p className="text-sm text-slate-500">Tick two or more judges: a turn passes when most of them pass it (each by the majority of its samples; ties fail).</p>
      )}
    </fieldset>
  );
}
