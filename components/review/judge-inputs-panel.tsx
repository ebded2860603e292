// The judge's inputs for one verdict, section by section, exactly as the judge was given them. Text only: model
// output is shown as text, never rendered as HTML or executed.
import type { JudgeInputSection } from "@/lib/review/judge-inputs";

export function JudgeInputsPanel({ sections, fileInputs = [], collapse = [] }: { sections: readonly JudgeInputSection[]; fileInputs?: readonly string[]; collapse?: readonly string[] }) {
  return (
    <section aria-label="What the judge saw" className="space-y-3">
      <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">What the judge saw</h2>
      {sections.map((section) => {
        const body = section.text ? (
          <pre
            tabIndex={0}
            className={`max-h-80 overflow-auto whitespace-pre-wrap break-words rounded-md bg-slate-50 px-3 py-2 text-sm dark:bg-slate-950 ${section.code ? "font-mono text-xs" : "font-sans"}`}
          >
            {section.text}
          </pre>
        ) : (
          <p className="text-sm italic text-slate-500">(empty)</p>
        );
        return (
          <div key={section.name} data-section={section.name} className="rounded-xl border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900">
            {collapse.includes(section.name) ? (
              <details>
                <summary className="cursor-pointer text-sm font-medium">
                  {section.title} <code className="ml-1 text-xs text-slate-500">{section.name}</code>
                </summary>
                <div className="mt-2">{body}</div>
              </details>
            ) : (
              <>
                <h3 className="mb-1 text-sm font-medium">
                  {section.title} <code className="ml-1 text-xs text-slate-500">{section.name}</code>
                </h3>
                {body}
              </>
            )}
          </div>
        );
      })}
      {fileInputs.length ? (
        <p className="text-xs text-slate-500">
          File inputs not shown to the judge: {fileInputs.join(", ")}. File requirements are checked separately and are not the judge&apos;s concern.
        </p>
      ) : null}
    </section>
  );
}
