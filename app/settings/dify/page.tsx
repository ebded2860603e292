import type { Metadata } from "next";
import Link from "next/link";
import { DifyConnectionManager } from "@/components/dify/dify-connection-manager";
import { PageHeader } from "@/components/ui/page-header";
import { database } from "@/lib/server/db";
import { listDifyConnections } from "@/lib/server/dify-connections/connections";
import { requireSignedInPermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Dify connections" };
export const dynamic = "force-dynamic";

const DESCRIPTION = (
  <>
    Your Dify servers (1.9 or later), where generated workflows are imported (pass step 1_5) and their test cases run (the resolve stage). The
    console account&apos;s password is stored encrypted and never shown again; it is sent as the server&apos;s version expects (as typed before
    1.11.2, base64-encoded from 1.11.2 on), and never to another host a redirect names. Testing a connection also checks its workspace for
    the model providers, models and tool plugins the benchmark&apos;s node types need. Created apps are deleted after each run unless you keep
    them. Judges are set up under{" "}
    <Link href="/settings/endpoints" className="text-brand-700 underline underline-offset-2 dark:text-brand-300">Model endpoints</Link>; executions show on{" "}
    <Link href="/jobs" className="text-brand-700 underline underline-offset-2 dark:text-brand-300">Jobs</Link>.
  </>
);

export default async function DifyConnectionsPage() {
  const connections = await listDifyConnections(database(), await requireSignedInPermission("manageEndpoints", "/settings/dify"));
  const header = <PageHeader title="Dify connections" description={DESCRIPTION} />;
  return <div className="space-y-6">{header}<DifyConnectionManager connections={connections} /></div>;
}
