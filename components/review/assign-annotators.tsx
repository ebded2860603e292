"use client";

// Who annotates a queue: assign more users who may vote, or remove one (their votes stay).
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { assignAnnotatorsAction, unassignAnnotatorAction } from "@/app/actions/review";
import { buttonStyles } from "@/components/ui/styles";

interface Person {
  id: string;
  email: string;
  name: string | null;
}

export function AssignAnnotators({ queueId, assigned, available }: { queueId: string; assigned: (Person & { voted: number })[]; available: (Person & { role: string })[] }) {
  const router = useRouter();
  const [chosen, setChosen] = useState<string[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const unassigned = available.filter((user) => !assigned.some((entry) => entry.id === user.id));

  function assign() {
    startTransition(async () => {
      const result = await assignAnnotatorsAction({ queueId, userIds: chosen });
      setMessage(result.ok ? `Assigned ${result.value.assigned} annotator${result.value.assigned === 1 ? "" : "s"}.` : result.message);
      if (result.ok) setChosen([]);
      router.refresh();
    });
  }

  function remove(person: Person) {
    startTransition(async () => {
      const result = await unassignAnnotatorAction({ queueId, userId: person.id });
      setMessage(result.ok ? `Removed ${person.email}; their votes are kept.` : result.message);
      router.refresh();
    });
  }

  return (
    <div className="space-y-4">
      {assigned.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">Nobody is assigned yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label="Assigned annotators">
          {assigned.map((person) => (
            <li key={person.id} className="flex items-center justify-between gap-3 py-2 text-sm">
              <span>
                {person.name ?? person.email} <span className="text-slate-500">{person.name ? person.email : ""}</span>
                <span className="ml-2 tabular-nums text-slate-600 dark:text-slate-400">{person.voted} votes</span>
              </span>
              <button type="button" className={buttonStyles.ghostDanger} disabled={pending} onClick={() => remove(person)} aria-label={`Remove ${person.email}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {unassigned.length ? (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">Assign</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-1">
            {unassigned.map((user) => (
              <label key={user.id} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={chosen.includes(user.id)}
                  onChange={() => setChosen((current) => (current.includes(user.id) ? current.filter((id) => id !== user.id) : [...current, user.id]))}
                />
                {user.name ?? user.email} · {user.role}
              </label>
            ))}
          </div>
          <button type="button" className={buttonStyles.secondary} disabled={pending || chosen.length === 0} onClick={assign}>
            Assign selected
          </button>
        </fieldset>
      ) : (
        <p className="text-xs text-slate-500">Everyone who may vote is assigned.</p>
      )}
      <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
        {message}
      </p>
    </div>
  );
}
