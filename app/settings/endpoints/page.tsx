import type { Metadata } from "next";
import Link from "next/link";
import { EndpointManager } from "@/components/endpoints/endpoint-manager";
import { PageHeader } from "@/components/ui/page-header";
import { database } from "@/lib/server/db";
import { listEndpoints } from "@/lib/server/endpoints/endpoints";
import { requireSignedInPermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Model endpoints" };
export const dynamic = "force-dynamic";

const DESCRIPTION = (
  <>
    OpenAI-compatible chat-completions servers (OpenAI, vLLM, Ollama, llama.cpp, proxies) used as judges. API keys are stored encrypted and are
    never shown again: only whether one is set and its last 4 characters. Judge a run from its page; follow progress on{" "}
    <Link href="/jobs" className="text-brand-700 underline underline-offset-2 dark:text-brand-300">Jobs</Link>. Workflows run on the{" "}
    <Link href="/settings/dify" className="text-brand-700 underline underline-offset-2 dark:text-brand-300">Dify connections</Link>.
  </>
);

export default async function EndpointsPage() {
  const endpoints = await listEndpoints(database(), await requireSignedInPermission("manageEndpoints", "/settings/endpoints"));
  const header = <PageHeader title="Model endpoints" description={DESCRIPTION} />;
  return <div className="space-y-6">{header}<EndpointManager endpoints={endpoints} /></div>;
}
