import Link from "next/link";

export default function NotFound() {
  return (
    <section className="mx-auto max-w-lg py-16 text-center">
      <title>Not found · Chat2Workflow Studio</title>
      <p className="text-sm font-semibold text-slate-500">404</p>
      <h1 className="mt-2 text-2xl font-semibold">Page not found</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-400">The page you asked for does not exist or was removed.</p>
      <Link href="/" className="mt-6 inline-block rounded-md border border-slate-300 px-4 py-2 text-sm hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800">
        Back to the leaderboard
      </Link>
    </section>
  );
}
