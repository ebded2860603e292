// A field's text diff (a prompt, code, a template) as inserted and deleted spans, unchanged stretches folded.
// Rendered from the diff's parts as React text only: model output is never interpreted as HTML.
import type { TextDiff } from "@/lib/diff/types";
import { foldTextDiff } from "@/lib/diff-view/text";

export function TextDiffView({ diff, label }: { diff: TextDiff; label: string }) {
  const segments = foldTextDiff(diff);
  return (
    <figure className="space-y-1" data-testid="text-diff">
      <figcaption className="text-xs text-slate-500">
        {label}: <span className="text-emerald-700 dark:text-emerald-400">+{diff.inserted}</span> / <span className="text-red-700 dark:text-red-400">−{diff.deleted}</span>{" "}
        {diff.granularity === "lines" ? "lines" : "words"}
      </figcaption>
      <pre className="max-h-96 overflow-auto rounded-md border border-slate-200 bg-slate-50 p-2 font-mono text-xs leading-relaxed whitespace-pre-wrap [overflow-wrap:anywhere] dark:border-slate-700 dark:bg-slate-800/60">
        {segments.map((segment, i) => {
          if (segment.op === "fold") {
            return (
              <span key={i} className="my-0.5 block rounded bg-slate-200/70 px-1 text-center text-[11px] text-slate-600 select-none dark:bg-slate-700 dark:text-slate-300">
                … {segment.lines} unchanged line{segment.lines === 1 ? "" : "s"} …
              </span>
            );
          }
          if (segment.op === "insert") {
            // A word replaced by another reads as two words, not one run together ("intelligent expert").
            const replaces = diff.granularity === "words" && segments[i - 1]?.op === "delete";
            return (
              <span key={i}>
                {replaces ? <span className="select-none"> </span> : null}
                <ins className="bg-emerald-100 text-emerald-950 no-underline dark:bg-emerald-900/60 dark:text-emerald-100" data-op="insert">
                  <span className="sr-only">[added] </span>
                  {segment.text}
                </ins>
              </span>
            );
          }
          if (segment.op === "delete") {
            return (
              <del key={i} className="bg-red-100 text-red-950 dark:bg-red-900/60 dark:text-red-100" data-op="delete">
                <span className="sr-only">[removed] </span>
                {segment.text}
              </del>
            );
          }
          return <span key={i}>{segment.text}</span>;
        })}
      </pre>
    </figure>
  );
}
