import { expect, type Page } from "@playwright/test";

export const DEMO = {
  admin: { email: "admin@demo.local", password: "admin-demo-pass", label: "Admin" },
  researcher: { email: "researcher@demo.local", password: "researcher-demo-pass", label: "Researcher" },
  annotator: { email: "annotator@demo.local", password: "annotator-demo-pass", label: "Annotator" },
  viewer: { email: "viewer@demo.local", password: "viewer-demo-pass", label: "Viewer" },
} as const;

export type DemoRole = keyof typeof DEMO;

export async function signIn(page: Page, role: DemoRole, callbackUrl = "/"): Promise<void> {
  const account = DEMO[role];
  await page.goto(`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("user-role")).toHaveText(account.label);
}
