/** Shown while a server-rendered page loads (route-level loading.tsx files use it). */
export function PageLoading({ label }: { label: string }) {
  return (
    <div role="status" aria-live="polite" className="space-y-4 py-4">
      <span className="sr-only">{label}</span>
      <div aria-hidden="true" className="h-7 w-64 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      <div aria-hidden="true" className="h-4 w-96 max-w-full animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      <div aria-hidden="true" className="h-80 animate-pulse rounded-xl bg-slate-200 dark:bg-slate-800" />
    </div>
  );
}
