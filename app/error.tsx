"use client";

import Link from "next/link";
import { useEffect } from "react";
import { buttonStyles } from "@/components/ui/styles";

// A page that failed on the server: one sentence and the error id (Next.js's digest, which the server log carries
// beside the details). The error's own message and stack are never shown.
export default function PageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    document.title = "Something went wrong";
  }, []);
  return (
    <section className="mx-auto max-w-lg space-y-4 py-10" aria-labelledby="error-title">
      <h1 id="error-title" className="text-2xl font-semibold">
        Something went wrong
      </h1>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        The server could not show this page. Nothing was changed. If it happens again, report the error id below.
      </p>
      {error.digest ? (
        <p className="text-sm">
          Error id: <code className="rounded bg-slate-100 px-1 font-mono dark:bg-slate-800" data-testid="error-id">{error.digest}</code>
        </p>
      ) : null}
      <div className="flex gap-3">
        <button type="button" className={buttonStyles.secondary} onClick={reset}>
          Try again
        </button>
        <Link href="/" className={buttonStyles.secondary}>
          Leaderboard
        </Link>
      </div>
    </section>
  );
}
