import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { AppHeader } from "@/components/app-shell/app-header";
import { clientEnv } from "@/lib/client-env";
import "./globals.css";
import { Providers } from "./providers";

export const metadata: Metadata = {
  title: { template: `%s · ${clientEnv.NEXT_PUBLIC_APP_NAME}`, default: clientEnv.NEXT_PUBLIC_APP_NAME },
  description: "Score, explain and compare LLM-generated visual workflows for the Chat2Workflow benchmark.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The per-request script nonce from proxy.ts (Content-Security-Policy), for next-themes' inline script.
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    <html lang="en" suppressHydrationWarning>
      <body className="min-h-screen">
        <Providers nonce={nonce}>
          <a
            href="#main"
            className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 dark:focus:bg-slate-900"
          >
            Skip to content
          </a>
          <AppHeader />
          <main id="main" className="mx-auto w-full max-w-7xl px-4 py-6 sm:px-6">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
