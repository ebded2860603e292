// The settings area's sections, in display order; `permission` hides those the role cannot open.
import { can, type Permission, type Role } from "@/lib/auth/roles";

export interface SettingsSection {
  href: string;
  label: string;
  permission: Exclude<Permission, "read">;
  description: string;
}

export const SETTINGS_SECTIONS: readonly SettingsSection[] = [
  { href: "/settings/users", label: "Users and roles", permission: "administer", description: "Invite people, change roles, reset passwords, disable accounts." },
  { href: "/settings/endpoints", label: "Model endpoints", permission: "manageEndpoints", description: "OpenAI-compatible servers that generate and judge runs." },
  { href: "/settings/dify", label: "Dify connections", permission: "manageEndpoints", description: "Dify servers that execute workflows for the resolve stage." },
  { href: "/settings/coze", label: "Coze export", permission: "manageEndpoints", description: "The GitHub token Coze packages write into HTTP nodes." },
  { href: "/settings/benchmark", label: "Default benchmark", permission: "administer", description: "The benchmark pages open on when a link names none." },
  { href: "/settings/tokens", label: "Access tokens", permission: "manageTokens", description: "Tokens for the HTTP API, acting with your role." },
];

export const settingsSectionsFor = (role: Role): SettingsSection[] => SETTINGS_SECTIONS.filter((section) => can(role, section.permission));
