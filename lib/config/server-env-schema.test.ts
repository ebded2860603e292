import { describe, expect, it } from "vitest";
import { parseServerEnv } from "./server-env-schema";

describe("parseServerEnv", () => {
  it("fills defaults for an empty environment", () => {
    const result = parseServerEnv({});
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toMatchObject({ APP_ENV: "local", PUBLIC_READ: true, PORT: 3000, ALLOW_DEMO_PASSWORDS: false });
  });

  it("reads flags and numbers", () => {
    const result = parseServerEnv({ PUBLIC_READ: "false", PORT: "3100", APP_ENV: "production" });
    expect(result.ok && result.value).toMatchObject({ PUBLIC_READ: false, PORT: 3100, APP_ENV: "production" });
  });

  it("names the variable and the problem when a value is invalid", () => {
    const result = parseServerEnv({ PUBLIC_READ: "maybe", NEXTAUTH_SECRET: "short" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const variables = result.issues.map((issue) => issue.variable).sort();
    expect(variables).toEqual(["NEXTAUTH_SECRET", "PUBLIC_READ"]);
    expect(result.issues.find((issue) => issue.variable === "NEXTAUTH_SECRET")?.message).toMatch(/32 characters/);
  });
});
