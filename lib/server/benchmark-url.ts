import "server-only";
// Pages that depend on a benchmark name it in their URL: a request without ?benchmark= is redirected to the same
// URL naming the benchmark it resolved to, so what a user copies and shares keeps its meaning after later imports.
import { redirect } from "next/navigation";
import { benchmarkHref } from "@/lib/leaderboard/benchmarks";

type SearchParams = Record<string, string | string[] | undefined>;

/** Redirects (throws) to `path` with `benchmark` added when the request did not name one; returns otherwise. */
export function nameBenchmarkInUrl(path: string, params: SearchParams, benchmark: string | null | undefined): void {
  if (!benchmark || params.benchmark !== undefined) return;
  const extra: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) extra[key] = first;
  }
  redirect(benchmarkHref(path, benchmark, extra));
}
