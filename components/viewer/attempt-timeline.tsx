"use client";
// The attempts of a generated turn, one tab per attempt in order: outcome, latency, the opencode run behind it
// (agentic-opencode: steps, the chosen step, exit code, duration, stderr), the static checks' issues, our located
// diagnostics (linked to their reference entry), each repair's own diff and the raw answer against the repaired
// candidate. Everything the model wrote is rendered as text.
import { TextDiffView } from "@/components/diff/text-diff-view";
import { Badge } from "@/components/ui/badge";
import { Tabs, type TabItem } from "@/components/ui/tabs";
import { outcomeTone, type TimelineAgentRun, type TimelineAttempt } from "@/lib/generation/attempt-timeline";
import { repairLabel } from "@/lib/workflow/repair-codes";
import { diagnosticReferenceHref } from "./diagnostic-list";

function formatMs(ms: number | null): string {
  if (ms === null) return "latency not recorded";
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

const pre = "max-h-80 overflow-auto whitespace-pre-wrap rounded-md border border-slate-200 bg-slate-50 p-2 font-mono text-xs [overflow-wrap:anywhere] dark:border-slate-700 dark:bg-slate-800/60";

function AgentRun({ run, index }: { run: TimelineAgentRun; index: number }) {
  const exit = run.timedOut ? "killed at the wall clock ([TIMEOUT])" : run.exitCode === null ? "no exit code" : `exit code ${run.exitCode}`;
  return (
    <section aria-label={`opencode run of attempt ${index}`} className="space-y-2" data-testid={`agent-run-${index}`}>
      <h4 className="font-medium">opencode run</h4>
      <p>
        {run.agent} · {exit} · {formatMs(run.durationMs)} · {run.steps.length} step{run.steps.length === 1 ? "" : "s"} ·{" "}
        {run.chosenStep === null ? "no step: the whole output stood in" : `step ${run.chosenStep + 1} kept${run.hasTags ? "" : " (without workflow tags)"}`}
        {run.sessionId ? <span className="text-slate-500"> · session {run.sessionId}</span> : null}
      </p>
      {run.steps.map((step, i) => (
        <details key={i}>
          <summary className="cursor-pointer">
            Step {i + 1}
            {i === run.chosenStep ? " (kept, the official selection)" : ""}
          </summary>
          <pre className={pre}>{step}</pre>
        </details>
      ))}
      {run.stderrTail ? (
        <details>
          <summary className="cursor-pointer">stderr of opencode (last lines)</summary>
          <pre className={pre}>{run.stderrTail}</pre>
        </details>
      ) : null}
    </section>
  );
}

function AttemptPanel({ attempt }: { attempt: TimelineAttempt }) {
  return (
    <div className="space-y-4 text-sm" data-testid={`attempt-${attempt.index}`}>
      <p className="flex flex-wrap items-center gap-2">
        <Badge tone={outcomeTone(attempt.outcome)}>{attempt.outcome}</Badge>
        <span>{attempt.outcomeText}</span>
        <span className="text-slate-500">
          · {formatMs(attempt.latencyMs)}
          {attempt.inputTokens !== null || attempt.outputTokens !== null ? ` · ${attempt.inputTokens ?? "?"} in / ${attempt.outputTokens ?? "?"} out tokens` : ""}
        </span>
      </p>
      {attempt.unreadable.length > 0 ? (
        <p className="text-amber-800 dark:text-amber-300">Stored {attempt.unreadable.join(", ")} could not be read (not the JSON it should be).</p>
      ) : null}
      {attempt.agentRun ? <AgentRun run={attempt.agentRun} index={attempt.index} /> : null}

      <section aria-label={`Static check issues of attempt ${attempt.index}`}>
        <h4 className="font-medium">Static checks</h4>
        {attempt.issues.length === 0 ? (
          <p className="text-slate-600 dark:text-slate-400">No issue.</p>
        ) : (
          <ul className="list-disc pl-5">
            {attempt.issues.map((issue, i) => (
              <li key={i}>
                <code className="text-xs">{issue.code}</code> {issue.message}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-label={`Diagnostics of attempt ${attempt.index}`}>
        <h4 className="font-medium">Diagnostics</h4>
        {attempt.diagnostics.length === 0 ? (
          <p className="text-slate-600 dark:text-slate-400">None recorded.</p>
        ) : (
          <ul className="list-disc pl-5">
            {attempt.diagnostics.map((diagnostic, i) => (
              <li key={i}>
                <a href={diagnosticReferenceHref(diagnostic.code)} className="font-mono text-xs text-brand-700 hover:underline dark:text-brand-400">
                  {diagnostic.code}
                </a>{" "}
                {diagnostic.nodeId !== null ? <span className="text-slate-500">node {JSON.stringify(diagnostic.nodeId)} · </span> : null}
                {diagnostic.message}
                {diagnostic.hint ? <span className="block text-xs text-slate-500">Fix: {diagnostic.hint}</span> : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-label={`Repairs of attempt ${attempt.index}`} className="space-y-2">
        <h4 className="font-medium">Repairs applied</h4>
        {attempt.repairs.length === 0 ? (
          <p className="text-slate-600 dark:text-slate-400">{attempt.candidate === null ? "None: the reply had no workflow to repair." : "None: the answer needed no repair."}</p>
        ) : (
          attempt.repairs.map((repair, i) => (
            <TextDiffView
              key={i}
              diff={repair.diff}
              label={`${i + 1}. ${repairLabel(repair.code)}${attempt.repairs.length === 1 ? " (the whole change from the raw answer to the candidate)" : ""}`}
            />
          ))
        )}
      </section>

      {/* With one repair its diff above is already the whole change. */}
      {attempt.diff && attempt.repairs.length !== 1 ? (
        <section aria-label={`Raw answer against the repaired candidate, attempt ${attempt.index}`}>
          <h4 className="font-medium">Raw answer → repaired candidate</h4>
          <TextDiffView diff={attempt.diff} label="All repairs together" />
        </section>
      ) : null}

      <details>
        <summary className="cursor-pointer font-medium">Reply as received</summary>
        <pre className={pre}>{attempt.raw}</pre>
      </details>
      <details>
        <summary className="cursor-pointer font-medium">Message sent</summary>
        <pre className={pre}>{attempt.message}</pre>
      </details>
    </div>
  );
}

export function AttemptTimeline({ attempts }: { attempts: readonly TimelineAttempt[] }) {
  if (attempts.length === 0) return null;
  const items: TabItem[] = attempts.map((attempt) => ({
    id: `attempt-${attempt.index}`,
    label: `Attempt ${attempt.index} · ${attempt.outcome}`,
    content: <AttemptPanel attempt={attempt} />,
  }));
  const last = attempts[attempts.length - 1]!;
  return (
    <section aria-labelledby="attempts-title" className="space-y-2" data-testid="attempt-timeline">
      <h2 id="attempts-title" className="text-lg font-semibold">
        Generation attempts ({attempts.length})
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Every call made for this turn, in order. Use the arrow keys to move between attempts. Texts longer than 20,000 characters are shown (and diffed) up
        to that length.
      </p>
      <Tabs items={items} label="Generation attempts" initial={`attempt-${last.index}`} />
    </section>
  );
}
