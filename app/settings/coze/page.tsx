import type { Metadata } from "next";
import { CozeTokenForm } from "@/components/settings/coze-token-form";
import { PageHeader } from "@/components/ui/page-header";
import { database } from "@/lib/server/db";
import { getCozeGithubTokenState } from "@/lib/server/data/settings";
import { requireSignedInPermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Coze export" };
export const dynamic = "force-dynamic";

export default async function CozeExportSettingsPage() {
  const user = await requireSignedInPermission("manageEndpoints", "/settings/coze");
  const state = await getCozeGithubTokenState(database(), user);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Coze export"
        description="The bearer token the HTTP nodes of a response's Coze package carry, where the official converter writes github_rest_token from its config.yaml (EMPTY without one). It is written only into packages you and other admins download; everyone else's say EMPTY."
      />
      <CozeTokenForm state={state} />
    </div>
  );
}
