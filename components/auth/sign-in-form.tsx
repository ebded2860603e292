"use client";

import { getSession, signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";

const MESSAGES: Record<string, string> = {
  CredentialsSignin: "Wrong email or password.",
  TooManyAttempts: "Too many failed sign-ins for this account or address. Wait up to 15 minutes and try again.",
  default: "Sign-in failed. Try again.",
};

export function SignInForm({ callbackUrl, initialError }: { callbackUrl: string; initialError: string | null }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(initialError ? (MESSAGES[initialError] ?? MESSAGES.default!) : null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    const result = await signIn("credentials", {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      redirect: false,
      callbackUrl,
    });
    setPending(false);
    if (!result || result.error) {
      setError(MESSAGES[result?.error ?? "default"] ?? MESSAGES.default!);
      return;
    }
    // Annotators signing in without a destination land on their review queues rather than the leaderboard.
    const role = callbackUrl === "/" ? (await getSession())?.user?.role : undefined;
    router.replace(role === "annotator" ? "/review" : callbackUrl);
    router.refresh();
  }

  const inputClass =
    "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 dark:border-slate-600 dark:bg-slate-900";

  return (
    <form onSubmit={onSubmit} className="mt-6 space-y-4" noValidate>
      <div>
        <label htmlFor="email" className="block text-sm font-medium">
          Email
        </label>
        <input id="email" name="email" type="email" autoComplete="username" required autoFocus className={inputClass} />
      </div>
      <div>
        <label htmlFor="password" className="block text-sm font-medium">
          Password
        </label>
        <input id="password" name="password" type="password" autoComplete="current-password" required className={inputClass} />
      </div>
      <p role="alert" aria-live="assertive" className="min-h-5 text-sm text-red-600 dark:text-red-400">
        {error}
      </p>
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60"
      >
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
