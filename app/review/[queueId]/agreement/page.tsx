import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AgreementTable, KappaNotes } from "@/components/review/agreement-table";
import { ConfusionMatrix } from "@/components/review/confusion-matrix";
import { CreateQueueButton } from "@/components/review/create-queue-button";
import { PaperReference } from "@/components/review/paper-reference";
import { QueueExportLinks } from "@/components/review/annotation-export-links";
import { linkClass } from "@/components/review/styles";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { buttonStyles, cardStyles, tableStyles } from "@/components/ui/styles";
import { describeFilter } from "@/lib/review/filter";
import { database } from "@/lib/server/db";
import { getQueueAgreement } from "@/lib/server/data/review";
import { requireSignedInPermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Queue agreement" };

export default async function QueueAgreementPage({ params }: PageProps<"/review/[queueId]/agreement">) {
  const { queueId } = await params;
  const user = await requireSignedInPermission("manageQueues", `/review/${queueId}/agreement`);
  const agreement = await getQueueAgreement(database(), user, queueId);
  if (!agreement) notFound();
  const { queue, report } = agreement;
  const all = report.rows[0]!;
  const itemHref = (itemId: string) => `/review/${queue.id}/items/${itemId}`;
  return (
    <>
      <PageHeader
        title={`Agreement · ${queue.name}`}
        description={
          <>
            {queue.filter ? describeFilter(queue.filter) : `${queue.stage} stage`} · {queue.mode} · {queue.progress.votes} of {queue.progress.target} votes cast
          </>
        }
        actions={
          <>
            <Link href={`/review/${queue.id}/manage`} className={buttonStyles.secondary}>
              Manage
            </Link>
            <Link href="/review/agreement" className={buttonStyles.secondary}>
              All queues
            </Link>
          </>
        }
      />
      <div className="space-y-6">
        <PaperReference stage={queue.stage} />
        {all.items === 0 ? (
          <EmptyState
            title={all.incomplete > 0 ? "No complete items yet" : "No votes yet"}
            action={queue.assignedToMe ? { href: `/review/${queue.id}`, label: "Start annotating" } : { href: `/review/${queue.id}/manage`, label: "Assign annotators" }}
          >
            <span data-testid="incomplete-items">
              {all.incomplete > 0
                ? `${all.incomplete} incomplete item${all.incomplete === 1 ? " has" : "s have"} some but not all of the ${queue.annotatorsPerItem} votes each needs; the figures count complete items only.`
                : "The figures appear as soon as annotators vote."}
            </span>
          </EmptyState>
        ) : (
          <>
            <section aria-labelledby="figures" className="space-y-2">
              <h2 id="figures" className="text-lg font-medium">
                Judge vs annotators
              </h2>
              <AgreementTable rows={report.rows} caption="Agreement of the judge with the annotators" />
              <KappaNotes row={all} />
              {all.visibleVotes > 0 ? (
                <p className="text-sm text-amber-800 dark:text-amber-300" data-testid="visible-votes">
                  {all.visibleVotes} of these {all.votes} votes were cast with the judge&apos;s verdict visible, so they may lean toward it: this
                  queue&apos;s figures include them, the pooled agreement overview and the judges&apos; calibration do not.
                </p>
              ) : null}
            </section>
            <section aria-labelledby="confusion" className={cardStyles}>
              <h2 id="confusion" className="mb-2 text-lg font-medium">
                Confusion matrix
              </h2>
              <ConfusionMatrix view={report.confusion} hrefFor={itemHref} caption={`Judge's verdict (rows) against the annotators' majority (columns); ${all.ties} tied item(s) left out.`} />
            </section>
            <section aria-labelledby="disagreements" className="space-y-3">
              <h2 id="disagreements" className="text-lg font-medium">
                Disagreements <Badge tone={report.disagreements.length ? "warn" : "good"}>{report.disagreements.length}</Badge>
              </h2>
              <p className="text-sm text-slate-600 dark:text-slate-400">Items where at least one annotator disagrees with the judge.</p>
              {report.disagreements.length === 0 ? (
                <p className="text-sm">Every annotator agrees with the judge on every voted item.</p>
              ) : (
                <>
                  <div className={tableStyles.wrapper}>
                    <table className={tableStyles.table} data-testid="disagreements">
                      <caption className="sr-only">Disagreements</caption>
                      <thead>
                        <tr>
                          <th scope="col" className={tableStyles.th}>Item</th>
                          <th scope="col" className={tableStyles.th}>Judge</th>
                          <th scope="col" className={tableStyles.th}>Judge said</th>
                          <th scope="col" className={tableStyles.th}>Annotators: pass / fail</th>
                          <th scope="col" className={tableStyles.th}>Comments</th>
                        </tr>
                      </thead>
                      <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                        {report.disagreements.map((item) => (
                          <tr key={item.id}>
                            <td className={tableStyles.td}>
                              <Link href={itemHref(item.id)} className={linkClass}>
                                {item.label}
                              </Link>
                            </td>
                            <td className={tableStyles.td}>{item.judge}</td>
                            <td className={tableStyles.td}>
                              <Badge tone={item.judgeVerdict ? "good" : "bad"}>{item.judgeVerdict ? "pass" : "fail"}</Badge>
                            </td>
                            <td className={tableStyles.tdNumber}>
                              {item.pass} / {item.fail}
                            </td>
                            <td className={`${tableStyles.td} max-w-md whitespace-normal text-xs`}>
                              {item.comments.map((entry) => (
                                <p key={entry.annotator}>
                                  <span className="text-slate-500">{entry.annotator}:</span> {entry.comment}
                                </p>
                              ))}
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                  <CreateQueueButton source={{ from: "queue-items", sourceQueueId: queue.id, itemIds: report.disagreements.map((item) => item.id), mode: queue.mode, annotatorsPerItem: queue.annotatorsPerItem }} />
                </>
              )}
            </section>
          </>
        )}
        <p className="text-sm">
          <QueueExportLinks queueId={queue.id} label="Export this queue's annotations" />
        </p>
      </div>
    </>
  );
}
