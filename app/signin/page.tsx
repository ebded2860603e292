import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { demoAccountsEnabled } from "@/lib/config/server-env-schema";
import { safeRedirectPath } from "@/lib/safe-redirect";
import { serverEnv } from "@/lib/server/env";
import { currentUser } from "@/lib/server/session";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: PageProps<"/signin">) {
  const params = await searchParams;
  const callbackUrl = safeRedirectPath(typeof params.callbackUrl === "string" ? params.callbackUrl : undefined);
  if (await currentUser()) redirect(callbackUrl);
  const showDemoHint = demoAccountsEnabled(serverEnv());
  return (
    <section className="mx-auto max-w-sm py-10">
      <h1 className="text-2xl font-semibold tracking-tight">Sign in</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Use your Chat2Workflow Studio account.</p>
      <SignInForm callbackUrl={callbackUrl} initialError={typeof params.error === "string" ? params.error : null} />
      {showDemoHint ? (
        <p className="mt-6 rounded-md bg-slate-100 p-3 text-xs text-slate-600 dark:bg-slate-900 dark:text-slate-400">
          Local demo: sign in as <code>admin@demo.local</code> with <code>admin-demo-pass</code> (see README for the other
          roles).
        </p>
      ) : null}
    </section>
  );
}
