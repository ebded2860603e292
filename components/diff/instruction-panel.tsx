// The instruction a diff is about (the later turn's, beside the graphs) with the earlier rounds' instructions one
// click away. Server-renderable; instructions are benchmark text, shown as plain text.
import { cardStyles } from "@/components/ui/styles";

export interface InstructionPanelProps {
  round: number;
  roundCount: number;
  instruction: string;
  /** Earlier rounds, oldest first; the last one is shown as "the previous instruction". */
  earlier: readonly { round: number; instruction: string }[];
  /** Open the previous instruction by default (a turn diff is about what changed since it). */
  previousOpen?: boolean;
}

export function InstructionPanel({ round, roundCount, instruction, earlier, previousOpen = false }: InstructionPanelProps) {
  const previous = earlier[earlier.length - 1];
  const older = earlier.slice(0, -1);
  return (
    <section aria-labelledby="instruction-title" className={`${cardStyles} space-y-3`} data-testid="instruction-panel">
      <div>
        <h2 id="instruction-title" className="text-xs font-semibold uppercase tracking-wide text-slate-500">
          Round {round} of {roundCount}: instruction
        </h2>
        <p className="mt-1 text-sm whitespace-pre-wrap" data-testid="instruction">
          {instruction}
        </p>
      </div>
      {previous ? (
        <details open={previousOpen} className="rounded-md border border-slate-200 p-2 dark:border-slate-700" data-testid="previous-instruction">
          <summary className="cursor-pointer text-sm font-medium">Previous instruction (round {previous.round})</summary>
          <p className="mt-1 text-sm whitespace-pre-wrap text-slate-700 dark:text-slate-300">{previous.instruction}</p>
        </details>
      ) : null}
      {older.length > 0 ? (
        <details className="rounded-md border border-slate-200 p-2 dark:border-slate-700">
          <summary className="cursor-pointer text-sm font-medium">Earlier instructions ({older.length})</summary>
          <ol className="mt-1 space-y-2">
            {older.map((entry) => (
              <li key={entry.round}>
                <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Round {entry.round}</h3>
                <p className="text-sm whitespace-pre-wrap text-slate-700 dark:text-slate-300">{entry.instruction}</p>
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </section>
  );
}
