import type { ReactNode } from "react";
import { SettingsNav } from "@/components/settings/settings-nav";
import { settingsSectionsFor } from "@/components/settings/sections";
import { currentUser } from "@/lib/server/session";

// Each page checks its own permission; the layout only draws the sections the visitor may open beside it.
export default async function SettingsLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  const sections = user ? settingsSectionsFor(user.role).map(({ href, label }) => ({ href, label })) : [];
  return (
    <div className="flex flex-col gap-6 md:flex-row">
      {sections.length > 0 ? <SettingsNav sections={sections} /> : null}
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  );
}
