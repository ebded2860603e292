import type { Metadata } from "next";
import Link from "next/link";
import { settingsSectionsFor } from "@/components/settings/sections";
import { PageHeader } from "@/components/ui/page-header";
import { cardStyles } from "@/components/ui/styles";
import { requireSignedInPermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Settings" };
export const dynamic = "force-dynamic";

export default async function SettingsPage() {
  const user = await requireSignedInPermission("manageTokens", "/settings");
  const sections = settingsSectionsFor(user.role);
  return (
    <div>
      <PageHeader title="Settings" description="Everything this instance is configured with that your role may change." />
      <ul className="grid gap-3 sm:grid-cols-2" data-testid="settings-sections">
        {sections.map((section) => (
          <li key={section.href} className={cardStyles}>
            <Link href={section.href} className="font-semibold text-brand-700 underline underline-offset-2 dark:text-brand-300">
              {section.label}
            </Link>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{section.description}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
