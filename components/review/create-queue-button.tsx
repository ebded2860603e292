"use client";

// Turns a set of items into a new review queue and opens it: a judge comparison's disagreements, or the items a
// queue's annotators disagreed on (a second look). One button, so both flows report failures and navigate alike.
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { createDisagreementQueueAction } from "@/app/actions/judges";
import { createDerivedQueueAction } from "@/app/actions/review";
import { buttonStyles } from "@/components/ui/styles";
import type { ReviewMode } from "@/lib/review/queue";

export type QueueSource =
  | { from: "judge-disagreements"; benchmarkId: string; stage: "pass" | "resolve"; judge: string; against: string; count: number }
  | { from: "queue-items"; sourceQueueId: string; itemIds: readonly string[]; mode: ReviewMode; annotatorsPerItem: number };

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

export function CreateQueueButton({ source }: { source: QueueSource }) {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const count = source.from === "judge-disagreements" ? source.count : source.itemIds.length;
  const label = source.from === "judge-disagreements" ? `Review these ${plural(count, "disagreement")} in a queue` : `Create a queue from these ${plural(count, "item")}`;
  function create() {
    startTransition(async () => {
      const result =
        source.from === "judge-disagreements"
          ? await createDisagreementQueueAction({ benchmarkId: source.benchmarkId, stage: source.stage, judge: source.judge, against: source.against })
          : await createDerivedQueueAction({ sourceQueueId: source.sourceQueueId, itemIds: [...source.itemIds], mode: source.mode, annotatorsPerItem: source.annotatorsPerItem });
      if (result.ok) router.push(`/review/${result.value.queueId}/manage?created=${result.value.items}`);
      else setMessage(result.message);
    });
  }
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button
        type="button"
        className={buttonStyles.primary}
        disabled={pending || count === 0}
        onClick={create}
        data-testid={source.from === "judge-disagreements" ? "disagreement-queue" : undefined}
      >
        {pending ? "Creating…" : label}
      </button>
      {message ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {message}
        </p>
      ) : null}
    </div>
  );
}
