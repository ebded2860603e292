// The judge's exact system prompt (and so the rules it had to follow), shown as text beside the item under review.
// Toggled with the "s" key or its button; text only, never rendered as HTML.
import type { JudgeSystemPrompt } from "@/lib/server/data/judge-prompts";

export function JudgePromptPanel({ prompt, open, onToggle, itemFingerprint }: { prompt: JudgeSystemPrompt | null; open: boolean; onToggle: () => void; itemFingerprint: string | null }) {
  return (
    <section aria-label="Judge's system prompt" className="rounded-xl border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900" data-testid="judge-prompt">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
          Judge&apos;s system prompt {prompt ? <code className="ml-1 text-xs font-normal normal-case">{prompt.name}</code> : null}
        </h2>
        <button type="button" onClick={onToggle} aria-expanded={open} className="rounded-md border border-slate-300 px-2 py-1 text-xs hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800">
          {open ? "Hide" : "Show"} the rules (s)
        </button>
      </div>
      {open ? (
        prompt ? (
          <>
            <pre tabIndex={0} className="mt-2 max-h-96 overflow-auto whitespace-pre-wrap break-words rounded-md bg-slate-50 px-3 py-2 font-sans text-sm dark:bg-slate-950" data-testid="judge-prompt-text">
              {prompt.text}
            </pre>
            {itemFingerprint && itemFingerprint !== prompt.fingerprint ? (
              <p className="mt-1 text-xs text-amber-800 dark:text-amber-300">This verdict was recorded with a different prompt (fingerprint {itemFingerprint.slice(0, 12)}); the benchmark&apos;s stored prompt is shown.</p>
            ) : null}
          </>
        ) : (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">The benchmark has no stored system prompt for this stage.</p>
        )
      ) : null}
    </section>
  );
}
