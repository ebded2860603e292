import type { Metadata } from "next";
import { UserManager } from "@/components/settings/user-manager";
import { PageHeader } from "@/components/ui/page-header";
import { listAccounts } from "@/lib/server/data/accounts";
import { database } from "@/lib/server/db";
import { requireSignedInPermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Users and roles" };
export const dynamic = "force-dynamic";

export default async function UsersPage() {
  const user = await requireSignedInPermission("administer", "/settings/users");
  const accounts = await listAccounts(database(), user);
  return (
    <div>
      <PageHeader
        title="Users and roles"
        description="Admins do everything; researchers import, evaluate, judge and grade; annotators vote in review queues; viewers read. A role change, a password reset or disabling an account ends its sessions at once; a disabled account's access tokens stop working."
      />
      <UserManager users={accounts.map((account) => ({ ...account, createdAt: account.createdAt.toISOString() }))} selfId={user.id} />
    </div>
  );
}
