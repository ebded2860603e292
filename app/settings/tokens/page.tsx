import type { Metadata } from "next";
import Link from "next/link";
import { TokenManager } from "@/components/tokens/token-manager";
import { PageHeader } from "@/components/ui/page-header";
import { can } from "@/lib/auth/roles";
import { database } from "@/lib/server/db";
import { requireSignedInPermission } from "@/lib/server/session";
import { listApiTokens } from "@/lib/server/tokens";

export const metadata: Metadata = { title: "Access tokens" };
export const dynamic = "force-dynamic";

export default async function TokensPage() {
  const user = await requireSignedInPermission("manageTokens", "/settings/tokens");
  const tokens = await listApiTokens(database(), user);
  const admin = can(user.role, "administer");
  return (
    <div className="space-y-6">
      <PageHeader
        title="Access tokens"
        description={
          <>
            Personal access tokens for the <Link href="/api" className="text-brand-600 underline dark:text-brand-500">HTTP API</Link>: send one as{" "}
            <code className="font-mono text-xs">Authorization: Bearer &lt;token&gt;</code>. A token acts with your current role, is shown once when it is
            made (only a hash is stored), and stops working when revoked or expired.{admin ? " As an admin you see and may revoke everyone's tokens." : ""}
          </>
        }
      />
      <TokenManager tokens={tokens} showOwners={admin} />
    </div>
  );
}
