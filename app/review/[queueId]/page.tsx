import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ReviewSession } from "@/components/review/review-session";
import { linkClass } from "@/components/review/styles";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { can } from "@/lib/auth/roles";
import { describeFilter } from "@/lib/review/filter";
import { database } from "@/lib/server/db";
import { getQueue } from "@/lib/server/data/review";
import { getQueueJudgePrompt } from "@/lib/server/data/judge-prompts";
import { requireSignedInPermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Review queue" };

export default async function ReviewQueuePage({ params, searchParams }: PageProps<"/review/[queueId]">) {
  const { queueId } = await params;
  const { item } = await searchParams;
  const user = await requireSignedInPermission("annotate", `/review/${queueId}`);
  const queue = await getQueue(database(), user, queueId);
  if (!queue) notFound();
  const judgePrompt = await getQueueJudgePrompt(database(), user, queue.id);
  const manager = can(user.role, "manageQueues");
  const links = (
    <span className="flex flex-wrap gap-3 text-sm">
      <Link href="/review" className={linkClass}>
        All queues
      </Link>
      {manager ? (
        <>
          <Link href={`/review/${queue.id}/manage`} className={linkClass}>
            Manage
          </Link>
          <Link href={`/review/${queue.id}/agreement`} className={linkClass}>
            Agreement
          </Link>
        </>
      ) : null}
    </span>
  );
  return (
    <>
      <PageHeader
        title={queue.name}
        description={
          <>
            <Badge tone={queue.mode === "blind" ? "info" : "neutral"}>{queue.mode}</Badge> {queue.filter ? describeFilter(queue.filter) : `${queue.stage} stage`} · {queue.progress.items} items · {queue.annotatorsPerItem} annotator
            {queue.annotatorsPerItem === 1 ? "" : "s"} per item
          </>
        }
        actions={links}
      />
      {queue.assignedToMe ? (
        <ReviewSession queueId={queue.id} mode={queue.mode} initialItemId={typeof item === "string" ? item : null} canManage={manager} judgePrompt={judgePrompt} />
      ) : (
        <EmptyState title="You are not assigned to this queue" action={{ href: `/review/${queue.id}/manage`, label: "Assign annotators" }}>
          Only assigned annotators vote, so that each item gets the intended number of votes. Assign yourself on the queue&apos;s page to take part.
        </EmptyState>
      )}
    </>
  );
}
