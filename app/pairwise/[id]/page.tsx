import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PairwiseFigures } from "@/components/pairwise/report-figures";
import { Badge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/page-header";
import { DataTable } from "@/components/ui/data-table";
import { cardStyles } from "@/components/ui/styles";
import { database } from "@/lib/server/db";
import { getComparison, type PairwiseItemView } from "@/lib/server/pairwise";
import { requirePagePermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Pairwise comparison" };
export const dynamic = "force-dynamic";

/** Answers are shown up to this many characters (model text can be megabytes); the stored items keep them whole. */
const SHOWN_CHARACTERS = 8_000;

function Answer({ title, text }: { title: string; text: string }) {
  return (
    <>
      <p className="mt-1 font-semibold">
        {title}
        {text.length > SHOWN_CHARACTERS ? ` (first ${SHOWN_CHARACTERS.toLocaleString("en")} characters)` : ""}
      </p>
      <pre className="max-h-64 max-w-xl overflow-auto whitespace-pre-wrap break-all">{text.slice(0, SHOWN_CHARACTERS)}</pre>
    </>
  );
}

const OUTCOME_TONE = { candidate: "good", baseline: "bad", tie: "neutral" } as const;

function Verdicts({ item }: { item: PairwiseItemView }) {
  if (item.verdicts.length === 0) return <span className="text-slate-500">{item.error ?? "not judged yet"}</span>;
  return (
    <ol className="space-y-1">
      {item.verdicts.map((verdict, index) => (
        <li key={index}>
          {verdict.round > 0 ? "rerun · " : ""}
          {verdict.order === "candidate-first" ? "candidate shown first" : "baseline shown first"}: <strong>{verdict.choice}</strong>
          {verdict.reason ? <span className="text-slate-600 dark:text-slate-400"> — {verdict.reason}</span> : null}
        </li>
      ))}
    </ol>
  );
}

export default async function PairwiseComparisonPage({ params }: PageProps<"/pairwise/[id]">) {
  const { id } = await params;
  const user = await requirePagePermission("read", `/pairwise/${encodeURIComponent(id)}`);
  const comparison = await getComparison(database(), user, id);
  if (!comparison) notFound();
  return (
    <div className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600 dark:text-slate-400">
        <Link href="/pairwise" className="hover:underline">Pairwise comparisons</Link> › {comparison.candidate.label} vs {comparison.baseline.label}
      </nav>
      <PageHeader
        title={`${comparison.candidate.model} vs ${comparison.baseline.model}`}
        description={
          <>
            Candidate <Link href={`/runs/${comparison.candidate.id}`} className="text-brand-600 underline">{comparison.candidate.label}</Link> against baseline{" "}
            <Link href={`/runs/${comparison.baseline.id}`} className="text-brand-600 underline">{comparison.baseline.label}</Link>, judged by{" "}
            {comparison.judges.map((judge) => `${judge.label} (${judge.model})`).join(", ")}, {comparison.samples} sample{comparison.samples === 1 ? "" : "s"} each, temperature 0; disagreeing
            orders {comparison.policy === "rerun" ? "are asked once more, then count a tie" : "count a tie"}. Order seed{" "}
            <span className="font-mono" data-testid="pairwise-seed">{comparison.orderSeed}</span>{" "}
            (<Link href={`/pairwise?candidate=${comparison.candidate.id}&baseline=${comparison.baseline.id}&seed=${comparison.orderSeed}`} className="text-brand-600 underline">start again with these orders</Link>).
          </>
        }
      />
      <section className={cardStyles} aria-label="Figures">
        <PairwiseFigures report={comparison.report} />
        <p className="mt-2 text-xs text-slate-500">
          Win rate = (wins + ½ ties) / judged, the rubric&apos;s <span className="font-mono">pairwise</span> formula; a rubric criterion with <span className="font-mono">source: pairwise</span> reads
          each turn&apos;s outcome from the run&apos;s latest comparison. The length check and its threshold are ours, not the benchmark&apos;s.
          {comparison.jobIds.length > 0 ? (
            <>
              {" "}Jobs:{" "}
              {comparison.jobIds.map((jobId, index) => (
                <span key={jobId}>
                  {index > 0 ? ", " : ""}
                  <Link href={`/jobs/${jobId}`} className="text-brand-600 underline">{jobId}</Link>
                </span>
              ))}
              .
            </>
          ) : null}
        </p>
      </section>
      <DataTable
        caption="Every comparison: turn, judge and sample, the order shown first, both verdicts with reasons, the outcome and both answers"
        testId="pairwise-items"
        region="Every comparison"
        headers={["Turn", "Judge · sample", "Verdicts", "Outcome", "Answers"]}
        rowHeader
        wrap={[2, 4]}
        columnClasses={{ 0: "font-mono font-normal", 2: "text-xs", 4: "text-xs" }}
        rows={comparison.items.map((item) => ({
          key: item.id,
          cells: [
            item.turnKey,
            `${item.judge} · ${item.sampleIndex}`,
            <Verdicts key="verdicts" item={item} />,
            <>
              {item.outcome ? <Badge tone={OUTCOME_TONE[item.outcome]}>{item.outcome === "tie" ? "tie" : `${item.outcome} wins`}</Badge> : "—"}
              {item.consistent === false ? <span className="ml-1 text-xs text-amber-700 dark:text-amber-400">orders disagreed</span> : null}
            </>,
            <details key="answers">
              <summary>
                candidate {item.candidateAnswer.length.toLocaleString("en")} chars · baseline {item.baselineAnswer.length.toLocaleString("en")} chars
                {item.longer !== "equal" ? ` (${item.longer} longer)` : ""}
              </summary>
              <Answer title="Candidate" text={item.candidateAnswer} />
              <Answer title="Baseline" text={item.baselineAnswer} />
            </details>,
          ],
        }))}
      />
    </div>
  );
}
