import type { Metadata } from "next";
import Link from "next/link";
import { linkClass } from "@/components/review/styles";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { ProgressBar } from "@/components/ui/progress-bar";
import { DataTable } from "@/components/ui/data-table";
import { buttonStyles } from "@/components/ui/styles";
import { can } from "@/lib/auth/roles";
import { formatDateTime } from "@/lib/format";
import { annotationExportHref } from "@/lib/review/export";
import { describeFilter } from "@/lib/review/filter";
import { getOwnAgreement } from "@/lib/server/data/review/own-agreement";
import type { OwnAgreement } from "@/lib/review/own-agreement";
import { database } from "@/lib/server/db";
import { listQueues } from "@/lib/server/data/review";
import { requireSignedInPermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Review" };

const share = (k: number, n: number) => `${k} of ${n} (${Math.round((100 * k) / n)}%)`;

/** How the annotator's own votes compare, once they have voted: with the others on the same items, and with the judge. */
function MyAgreement({ agreement }: { agreement: OwnAgreement | null }) {
  if (!agreement) return null;
  const { withOthers, withJudge } = agreement;
  return (
    <p className="mt-2 text-sm" data-testid="my-agreement">
      {withOthers.pairs > 0 ? <>You agree with the other annotators on {share(withOthers.agree, withOthers.pairs)} shared votes ({withOthers.items} item{withOthers.items === 1 ? "" : "s"})</> : <>No other annotator has voted on your items yet</>}
      {" · "}with the judge on {share(withJudge.agree, withJudge.votes)} of your votes.
    </p>
  );
}

export default async function ReviewPage() {
  const user = await requireSignedInPermission("annotate", "/review");
  const manager = can(user.role, "manageQueues");
  const queues = await listQueues(database(), user);
  const mine = queues.filter((queue) => queue.assignedToMe);
  const agreement = await getOwnAgreement(database(), user, mine.map((queue) => queue.id));
  const others = queues.filter((queue) => !queue.assignedToMe);
  return (
    <>
      <PageHeader
        title="Review"
        description="Annotation queues for checking the judge's verdicts: vote whether each verdict is right and whether the judge followed its prompt's rules. Agreement figures compare the judge with the annotators."
        actions={
          manager ? (
            <>
              <Link href="/review/agreement" className={buttonStyles.secondary}>
                Agreement overview
              </Link>
              <Link href="/review/new" className={buttonStyles.primary}>
                New queue
              </Link>
            </>
          ) : null
        }
      />
      <section aria-labelledby="my-queues" className="space-y-3">
        <h2 id="my-queues" className="text-lg font-medium">
          My queues{" "}
          <span className="text-sm font-normal text-slate-600 dark:text-slate-400" data-testid="my-queue-counts">
            ({mine.length} queue{mine.length === 1 ? "" : "s"}, {mine.reduce((sum, queue) => sum + queue.mine.remaining, 0)} item{mine.reduce((sum, queue) => sum + queue.mine.remaining, 0) === 1 ? "" : "s"} left to vote on)
          </span>
        </h2>
        {mine.length === 0 ? (
          <EmptyState title="No review queues assigned to you" action={manager ? { href: "/review/new", label: "Create a queue" } : undefined}>
            {manager ? "Create a queue and assign yourself, or assign annotators on a queue's page." : "Queues an admin or researcher assigns to you will appear here."}
          </EmptyState>
        ) : (
          <ul className="grid gap-3 md:grid-cols-2" aria-label="Queues assigned to me">
            {mine.map((queue) => (
              <li key={queue.id} className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900" data-testid="my-queue">
                <div className="flex items-start justify-between gap-2">
                  <Link href={`/review/${queue.id}`} className={`font-medium ${linkClass}`}>
                    {queue.name}
                  </Link>
                  <span className="flex gap-1">
                    <Badge>{queue.stage}</Badge>
                    <Badge tone={queue.mode === "blind" ? "info" : "neutral"}>{queue.mode}</Badge>
                  </span>
                </div>
                <p className="mt-1 text-xs text-slate-500">
                  {queue.benchmark} · {queue.progress.items} items · {queue.annotatorsPerItem} annotator{queue.annotatorsPerItem === 1 ? "" : "s"} per item
                </p>
                <MyAgreement agreement={agreement.get(queue.id) ?? null} />
                <div className="mt-3 space-y-2">
                  <ProgressBar label="My votes" value={queue.mine.voted} max={queue.mine.total} />
                  <ProgressBar label="Queue votes" value={queue.progress.votes} max={queue.progress.target} />
                </div>
                <div className="mt-3 flex gap-2">
                  <Link href={`/review/${queue.id}`} className={buttonStyles.primary}>
                    {queue.mine.remaining === 0 ? "Review my votes" : queue.mine.voted === 0 ? "Start" : "Resume"}
                  </Link>
                  {manager ? (
                    <Link href={`/review/${queue.id}/agreement`} className={buttonStyles.secondary}>
                      Agreement
                    </Link>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>

      {manager ? (
        <section aria-labelledby="all-queues" className="mt-8 space-y-3">
          <div className="flex flex-wrap items-end justify-between gap-2">
            <h2 id="all-queues" className="text-lg font-medium">
              Other queues
            </h2>
            <span className="flex gap-2 text-sm">
              <a href={annotationExportHref("csv")} className={linkClass}>
                Export all annotations (CSV)
              </a>
              <a href={annotationExportHref("json")} className={linkClass}>
                (JSON)
              </a>
            </span>
          </div>
          {others.length === 0 ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">No queues besides yours.</p>
          ) : (
            <DataTable
              caption="Queues not assigned to me"
              headers={["Queue", "Filter", "Mode", "Annotators", "Votes", "Created", <span key="links" className="sr-only">Links</span>]}
              columnClasses={{ 0: "whitespace-normal", 1: "whitespace-normal text-xs", 5: "text-xs text-slate-500" }}
              numeric={[3, 4]}
              rows={others.map((queue) => ({
                key: queue.id,
                cells: [
                  <Link key="queue" href={`/review/${queue.id}/manage`} className={`font-medium ${linkClass}`}>
                    {queue.name}
                  </Link>,
                  queue.filter ? describeFilter(queue.filter) : queue.stage,
                  queue.mode,
                  queue.annotators.length,
                  <>
                    {queue.progress.votes} / {queue.progress.target}
                  </>,
                  <>
                    {formatDateTime(queue.createdAt)}
                    {queue.createdBy ? <span className="block">by {queue.createdBy}</span> : null}
                  </>,
                  <Link key="agreement" href={`/review/${queue.id}/agreement`} className={linkClass}>
                    Agreement
                  </Link>,
                ],
              }))}
            />
          )}
        </section>
      ) : null}
    </>
  );
}
