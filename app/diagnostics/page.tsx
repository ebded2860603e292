// The diagnostics reference: every registered code with its category, severity, official step, documentation and
// an example, each under an anchor (#<code>) that the viewer's diagnostic entries link to.
import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { cardStyles } from "@/components/ui/styles";
import { requirePagePermission } from "@/lib/server/session";
import { CATEGORY_DESCRIPTIONS, codesOfCategory, diagnosticAnchor } from "@/lib/workflow/diagnostics-doc";
import { DIAGNOSTIC_CATEGORIES } from "@/lib/workflow/diagnostics";

export const metadata: Metadata = { title: "Diagnostics reference" };

export default async function DiagnosticsPage() {
  await requirePagePermission("read", "/diagnostics");
  return (
    <>
      <PageHeader
        title="Diagnostics reference"
        description="Every problem the scoring core reports, by category. The official step is the step of the official pass stage that fails when the problem is present; codes without one do not change the official verdict."
      />
      <nav aria-label="Categories" className="mb-6 flex flex-wrap gap-3 text-sm">
        {DIAGNOSTIC_CATEGORIES.map((category) => (
          <a key={category} href={`#category-${category}`} className="text-brand-700 underline-offset-2 hover:underline dark:text-brand-300">
            {category} ({codesOfCategory(category).length})
          </a>
        ))}
      </nav>
      {DIAGNOSTIC_CATEGORIES.map((category) => (
        <section key={category} aria-labelledby={`category-${category}`} className="mb-8">
          <h2 id={`category-${category}`} className="text-xl font-semibold">
            {category}
          </h2>
          <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{CATEGORY_DESCRIPTIONS[category]}</p>
          <div className="space-y-3">
            {codesOfCategory(category).map(([code, spec]) => (
              <article key={code} id={diagnosticAnchor(code)} className={`${cardStyles} scroll-mt-20 target:border-brand-500`}>
                <h3 className="flex flex-wrap items-baseline gap-2">
                  <code className="text-sm font-semibold">{code}</code>
                  <span className="text-sm">{spec.title}</span>
                </h3>
                <p className="mt-1 text-xs text-slate-500">
                  {spec.severity}
                  {spec.officialStep ? ` · fails ${spec.officialStep}` : " · analysis only"}
                </p>
                <p className="mt-2 text-sm">{spec.doc}</p>
                <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
                  Example: <code className="break-all">{spec.example}</code>
                </p>
              </article>
            ))}
          </div>
        </section>
      ))}
    </>
  );
}
