import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { cardStyles } from "@/components/ui/styles";
import { DIFF_ROUTES } from "@/lib/diff/links";
import { requirePagePermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Compare workflows" };

export default async function ComparePage() {
  await requirePagePermission("read", "/diff");
  return (
    <>
      <PageHeader title="Compare workflows" description="See what changed in a workflow: from one turn of a task to the next, or between two models on the same turn." />
      <div className="grid gap-4 md:grid-cols-2">
        <Link href={DIFF_ROUTES.turns} className={`${cardStyles} block hover:border-brand-500`}>
          <h2 className="text-lg font-semibold">Between turns</h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            One run, one task: step through its rounds (1 → 2 → 3 …) and see the nodes, edges, prompts and code each new instruction added, removed or changed, and what regressed.
          </p>
        </Link>
        <Link href={DIFF_ROUTES.models} className={`${cardStyles} block hover:border-brand-500`}>
          <h2 className="text-lg font-semibold">Between models</h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            One turn answered by two runs, side by side: the same marks relative to each other, and their verdicts (official steps, rule judge, recorded verdict, resolve tests).
          </p>
        </Link>
      </div>
    </>
  );
}
