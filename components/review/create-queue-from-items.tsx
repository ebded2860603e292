"use client";

// Turns a list of items (a queue's disagreements) into a new queue for a second look.
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { createDerivedQueueAction } from "@/app/actions/review";
import { buttonStyles } from "@/components/ui/styles";
import type { ReviewMode } from "@/lib/review/queue";

export function CreateQueueFromItems({ sourceQueueId, itemIds, mode, annotatorsPerItem }: { sourceQueueId: string; itemIds: readonly string[]; mode: ReviewMode; annotatorsPerItem: number }) {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  function create() {
    startTransition(async () => {
      const result = await createDerivedQueueAction({ sourceQueueId, itemIds: [...itemIds], mode, annotatorsPerItem });
      if (result.ok) router.push(`/review/${result.value.queueId}/manage?created=${result.value.items}`);
      else setMessage(result.message);
    });
  }
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button type="button" className={buttonStyles.primary} disabled={pending || itemIds.length === 0} onClick={create}>
        {pending ? "Creating…" : `Create a queue from these ${itemIds.length} item${itemIds.length === 1 ? "" : "s"}`}
      </button>
      {message ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {message}
        </p>
      ) : null}
    </div>
  );
}
