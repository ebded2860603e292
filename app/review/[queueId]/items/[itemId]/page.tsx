import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { JudgeInputsPanel } from "@/components/review/judge-inputs-panel";
import { linkClass } from "@/components/review/styles";
import { WorkflowSlot } from "@/components/review/workflow-slot";
import { Badge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/page-header";
import { cardStyles, tableStyles } from "@/components/ui/styles";
import { formatDateTime } from "@/lib/format";
import { database } from "@/lib/server/db";
import { getItemDetail } from "@/lib/server/data/review";
import { requireSignedInPermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Reviewed item" };

export default async function ReviewItemPage({ params }: PageProps<"/review/[queueId]/items/[itemId]">) {
  const { queueId, itemId } = await params;
  const user = await requireSignedInPermission("manageQueues", `/review/${queueId}/items/${itemId}`);
  const detail = await getItemDetail(database(), user, queueId, itemId);
  if (!detail) notFound();
  const { queue, item, votes } = detail;
  return (
    <>
      <PageHeader
        title={`${item.model.displayName} · ${item.task} round ${item.round}${item.stage === "resolve" ? ` · case ${item.casePosition}` : ""}`}
        description={
          <>
            Item {item.position + 1} of{" "}
            <Link href={`/review/${queue.id}/agreement`} className={linkClass}>
              {queue.name}
            </Link>{" "}
            · {item.stage} stage · judge {item.judgeName} · input fingerprint <code className="text-xs">{item.inputFingerprint.slice(0, 12)}</code>
          </>
        }
        actions={
          <nav aria-label="Items" className="flex gap-3 text-sm">
            {detail.previousId ? (
              <Link href={`/review/${queue.id}/items/${detail.previousId}`} className={linkClass}>
                ← Previous item
              </Link>
            ) : null}
            {detail.nextId ? (
              <Link href={`/review/${queue.id}/items/${detail.nextId}`} className={linkClass}>
                Next item →
              </Link>
            ) : null}
          </nav>
        }
      />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_26rem]">
        <div className="min-w-0 space-y-4">
          <JudgeInputsPanel sections={item.sections} fileInputs={item.fileInputs} collapse={item.stage === "pass" ? ["workflow"] : []} />
          <WorkflowSlot workflow={item.workflow} />
        </div>
        <aside className="space-y-4">
          <section aria-label="Judge's verdict" className={cardStyles}>
            <h2 className="mb-2 text-sm font-semibold uppercase tracking-wide text-slate-500">Judge&apos;s verdict</h2>
            {item.judge ? (
              <>
                <Badge tone={item.judge.verdict ? "good" : "bad"}>{item.judge.verdict ? "pass" : "fail"}</Badge>
                <pre className="mt-2 whitespace-pre-wrap break-words font-sans text-sm">{item.judge.reason ?? "No reason was recorded."}</pre>
              </>
            ) : null}
          </section>
          <section aria-label="Votes" className={cardStyles}>
            <h2 className="mb-2 text-sm font-semibold uppercase tracking-wide text-slate-500">Votes ({votes.length})</h2>
            {votes.length === 0 ? (
              <p className="text-sm text-slate-600 dark:text-slate-400">Nobody has voted on this item yet.</p>
            ) : (
              <table className={tableStyles.table}>
                <caption className="sr-only">Votes on this item</caption>
                <thead>
                  <tr>
                    <th scope="col" className={tableStyles.th}>Annotator</th>
                    <th scope="col" className={tableStyles.th}>Verdict</th>
                    <th scope="col" className={tableStyles.th}>Rules</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                  {votes.map((vote) => (
                    <tr key={vote.annotator}>
                      <td className={`${tableStyles.td} whitespace-normal`}>
                        {vote.annotator}
                        <span className="block text-xs text-slate-500">
                          {formatDateTime(vote.updatedAt)}
                          {vote.judgeVisible ? "" : " · blind"}
                        </span>
                        {vote.comment ? <p className="mt-1 text-xs">{vote.comment}</p> : null}
                      </td>
                      <td className={tableStyles.td}>
                        <Badge tone={vote.verdict === "correct" ? "good" : "bad"}>{vote.verdict}</Badge>
                        <span className="block text-xs text-slate-500">says {vote.pass ? "pass" : "fail"}</span>
                      </td>
                      <td className={tableStyles.td}>{vote.followedRules ?? "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </aside>
      </div>
    </>
  );
}
