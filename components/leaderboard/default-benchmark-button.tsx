"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { setDefaultBenchmarkAction } from "@/app/actions/settings";
import { buttonStyles } from "@/components/ui/styles";

/** Admins: make the benchmark shown the default for links that name none. */
export function DefaultBenchmarkButton({ benchmarkId, name }: { benchmarkId: string; name: string }) {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        className={buttonStyles.secondary}
        disabled={pending}
        onClick={() =>
          startTransition(async () => {
            const result = await setDefaultBenchmarkAction({ benchmarkId });
            setMessage(result.ok ? `${name} is now the default benchmark.` : result.message);
            router.refresh();
          })
        }
      >
        Make default
      </button>
      {message ? (
        <span role="status" className="text-xs text-slate-600 dark:text-slate-400">
          {message}
        </span>
      ) : null}
    </span>
  );
}
