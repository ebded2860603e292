import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AssignAnnotators } from "@/components/review/assign-annotators";
import { QueueExportLinks } from "@/components/review/annotation-export-links";
import { linkClass } from "@/components/review/styles";
import { Badge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/page-header";
import { ProgressBar } from "@/components/ui/progress-bar";
import { buttonStyles, cardStyles } from "@/components/ui/styles";
import { formatDateTime } from "@/lib/format";
import { describeFilter } from "@/lib/review/filter";
import { database } from "@/lib/server/db";
import { getQueue, listAnnotators } from "@/lib/server/data/review";
import { requireSignedInPermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Manage review queue" };

export default async function ManageQueuePage({ params, searchParams }: PageProps<"/review/[queueId]/manage">) {
  const { queueId } = await params;
  const { created } = await searchParams;
  const user = await requireSignedInPermission("manageQueues", `/review/${queueId}/manage`);
  const db = database();
  const queue = await getQueue(db, user, queueId);
  if (!queue) notFound();
  const annotators = await listAnnotators(db, user);
  return (
    <>
      <PageHeader
        title={queue.name}
        description={queue.filter ? describeFilter(queue.filter) : `${queue.stage} stage`}
        actions={
          <>
            {queue.assignedToMe ? (
              <Link href={`/review/${queue.id}`} className={buttonStyles.primary}>
                Annotate
              </Link>
            ) : null}
            <Link href={`/review/${queue.id}/agreement`} className={buttonStyles.secondary}>
              Agreement
            </Link>
          </>
        }
      />
      {typeof created === "string" ? (
        <p role="status" className="mb-4 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300">
          Queue created with {created} item{created === "1" ? "" : "s"}.
        </p>
      ) : null}
      {queue.annotators.length < queue.annotatorsPerItem ? (
        <p role="alert" className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200" data-testid="annotator-shortfall">
          This queue cannot finish yet: each item needs {queue.annotatorsPerItem} different annotators and {queue.annotators.length} {queue.annotators.length === 1 ? "is" : "are"} assigned. Assign{" "}
          {queue.annotatorsPerItem - queue.annotators.length} more below.
        </p>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="queue-settings" className={`${cardStyles} space-y-2 text-sm`}>
          <h2 id="queue-settings" className="font-medium">
            Settings
          </h2>
          <dl className="grid grid-cols-[10rem_1fr] gap-y-1">
            <dt className="text-slate-500">Benchmark</dt>
            <dd>{queue.benchmark}</dd>
            <dt className="text-slate-500">Stage</dt>
            <dd>{queue.stage}</dd>
            <dt className="text-slate-500">Mode</dt>
            <dd>
              <Badge tone={queue.mode === "blind" ? "info" : "neutral"}>{queue.mode}</Badge>
            </dd>
            <dt className="text-slate-500">Items</dt>
            <dd>
              {queue.progress.items} (asked for {queue.sampleSize}, seed <code>{queue.seed}</code>)
            </dd>
            <dt className="text-slate-500">Annotators per item</dt>
            <dd>{queue.annotatorsPerItem}</dd>
            <dt className="text-slate-500">Created</dt>
            <dd>
              {formatDateTime(queue.createdAt)}
              {queue.createdBy ? ` by ${queue.createdBy}` : ""}
            </dd>
            {queue.sourceQueueId ? (
              <>
                <dt className="text-slate-500">Re-reviews</dt>
                <dd>
                  <Link href={`/review/${queue.sourceQueueId}/agreement`} className={linkClass}>
                    the source queue&apos;s disagreements
                  </Link>
                </dd>
              </>
            ) : null}
          </dl>
          <div className="pt-2">
            <ProgressBar label="Votes" value={queue.progress.votes} max={queue.progress.target} />
            <p className="mt-1 text-xs text-slate-500">
              {queue.progress.complete} of {queue.progress.items} items have all their votes.
            </p>
          </div>
          <p className="pt-2">
            <QueueExportLinks queueId={queue.id} label="Export annotations" />
          </p>
        </section>
        <section aria-labelledby="queue-annotators" className={cardStyles}>
          <h2 id="queue-annotators" className="mb-2 font-medium">
            Annotators
          </h2>
          <AssignAnnotators queueId={queue.id} assigned={queue.annotators} available={annotators} />
        </section>
      </div>
    </>
  );
}
