// What any page that calls forbidden() shows, with HTTP status 403 (the /403 page is one of them).
import Link from "next/link";
import { ROLE_LABELS } from "@/lib/auth/roles";
import { currentUser } from "@/lib/server/session";
import { DocumentTitle } from "@/components/ui/document-title";
import { clientEnv } from "@/lib/client-env";

export default async function ForbiddenPage() {
  const user = await currentUser();
  return (
    <section className="mx-auto max-w-lg py-16 text-center">
      {/* forbidden.tsx cannot export metadata: the title is set here. */}
      <DocumentTitle title={`Access denied · ${clientEnv.NEXT_PUBLIC_APP_NAME}`} />
      <p className="text-sm font-semibold text-red-600 dark:text-red-400">403</p>
      <h1 className="mt-2 text-2xl font-semibold">Access denied</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-400">
        {user
          ? `Your role (${ROLE_LABELS[user.role]}) does not allow opening this page. Ask an admin for a different role.`
          : "Sign in with an account whose role allows this page."}
      </p>
      <div className="mt-6 flex justify-center gap-3">
        <Link href="/" className="rounded-md border border-slate-300 px-4 py-2 text-sm hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800">
          Back to the leaderboard
        </Link>
        {user ? null : (
          <Link href="/signin" className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
            Sign in
          </Link>
        )}
      </div>
    </section>
  );
}
