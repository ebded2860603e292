// Dify connections: the password is stored encrypted and never read back into views, editing with an empty password
// keeps it, the connection test signs in to a loopback fake Dify (1.9 with the plain password, 1.12 with the
// base64-encoded one) and checks its workspace against what the benchmark's node types need, and only admins may
// manage connections.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Role } from "@/lib/auth/roles";
import { AuthorizationError } from "@/lib/server/authz";
import {
  createDifyConnection,
  deleteDifyConnection,
  difyConnectionFieldsSchema,
  listDifyConnections,
  loadDifyConnectionConfig,
  testDifyConnection,
  updateDifyConnection,
  type DifyConnectionFields,
} from "@/lib/server/dify-connections/connections";
import type { SessionUser } from "@/lib/server/session";
import { fullFakeInventory, startFakeDify, type FakeDify } from "@/test/support/fake-dify";
import { emptyDatabase, testDatabase } from "../support/database";

process.env.C2W_SECRETS_KEY ??= randomBytes(32).toString("base64");

const actor = (role: Role): SessionUser => ({ id: `user-${role}`, email: `${role}@example.org`, name: null, role });
const admin = actor("admin");
const researcher = actor("researcher");
const PASSWORD = "correct horse battery staple";

describe("Dify connections", () => {
  const db = testDatabase();
  let dify: FakeDify;
  const fields = (overrides: Partial<DifyConnectionFields> = {}): DifyConnectionFields => ({ label: "local dify", baseUrl: dify.origin, email: "admin@example.com", keepApps: false, runTimeoutMs: 1_200_000, ...overrides });

  beforeAll(async () => {
    dify = await startFakeDify({ password: PASSWORD });
  });
  afterAll(() => dify.close());
  beforeEach(() => emptyDatabase(db));

  it("stores the password encrypted, shows only that one is set, and keeps it when an edit leaves it empty", async () => {
    const created = await createDifyConnection(db, admin, fields(), PASSWORD);
    expect(created).toMatchObject({ label: "local dify", hasPassword: true, keepApps: false, runTimeoutMs: 1_200_000 });
    expect(JSON.stringify(created)).not.toContain(PASSWORD);
    const row = await db.difyConnection.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.passwordCipher.startsWith("v1.")).toBe(true);
    expect(row.passwordCipher).not.toContain(PASSWORD);
    expect(JSON.stringify(await listDifyConnections(db, researcher))).not.toContain(row.passwordCipher);

    const edited = await updateDifyConnection(db, admin, created.id, fields({ keepApps: true, runTimeoutMs: 60_000 }), null);
    expect(edited).toMatchObject({ keepApps: true, runTimeoutMs: 60_000 });
    expect((await loadDifyConnectionConfig(db, created.id))?.password).toBe(PASSWORD);
    await updateDifyConnection(db, admin, created.id, fields(), "a new password");
    expect((await loadDifyConnectionConfig(db, created.id))?.password).toBe("a new password");
  });

  it("tests a connection by signing in, and reports a refusal without echoing the password", async () => {
    const good = await createDifyConnection(db, admin, fields(), PASSWORD);
    const passed = await testDifyConnection(db, admin, good.id);
    expect(passed).toMatchObject({ ok: true, version: "1.9.2", passwordStyle: "plain", message: expect.stringContaining("(Dify 1.9.2, password sent as typed)") });
    expect(dify.log).toContain("POST /console/api/login");
    expect(passed?.readiness?.length).toBeGreaterThan(10);
    expect(passed?.readiness?.filter((line) => !(line.state === "ready"))).toEqual([]);
    const bad = await createDifyConnection(db, admin, fields({ label: "wrong password" }), "wrong");
    const refused = await testDifyConnection(db, admin, bad.id);
    expect(refused).toMatchObject({ ok: false, message: "HTTP 401 authentication_failed: Invalid email or password. (Dify 1.9.2, password sent as typed)" });
    expect(JSON.stringify(refused)).not.toContain("wrong\"");
    expect(await testDifyConnection(db, admin, "no-such-connection")).toBeNull();
  });

  it("signs in to Dify 1.12 with the base64 password and lists the plugin its workspace lacks", async () => {
    const full = fullFakeInventory();
    const newer = await startFakeDify({
      version: "1.12.0",
      password: PASSWORD,
      inventory: { ...full, plugins: full.plugins.filter((plugin) => plugin !== "langgenius/echarts"), toolProviders: full.toolProviders.filter((provider) => provider.pluginId !== "langgenius/echarts") },
    });
    try {
      const connection = await createDifyConnection(db, admin, fields({ label: "newer dify", baseUrl: newer.origin }), PASSWORD);
      const tested = await testDifyConnection(db, admin, connection.id);
      expect(tested).toMatchObject({ ok: true, version: "1.12.0", passwordStyle: "base64" });
      expect(newer.passwordsReceived).toEqual([Buffer.from(PASSWORD).toString("base64")]);
      const lacking = tested?.readiness?.filter((line) => line.state !== "ready") ?? [];
      expect(lacking.map((line) => [line.requirement, line.state])).toEqual([
        ["plugin langgenius/echarts", "missing"],
        ["tool bar_chart (langgenius/echarts/echarts)", "missing"],
        ["tool line_chart (langgenius/echarts/echarts)", "missing"],
        ["tool pie_chart (langgenius/echarts/echarts)", "missing"],
      ]);
      expect(lacking[0]?.usedBy).toEqual(["tool bar_chart", "tool line_chart", "tool pie_chart"]);
    } finally {
      await newer.close();
    }
  });

  it("validates the origin and timeout, and lets only admins manage connections", async () => {
    expect(difyConnectionFieldsSchema.safeParse(fields({ baseUrl: "http://localhost/console/api" })).success).toBe(false);
    expect(difyConnectionFieldsSchema.safeParse(fields({ baseUrl: "ftp://localhost" })).success).toBe(false);
    expect(difyConnectionFieldsSchema.safeParse(fields({ runTimeoutMs: 10 })).success).toBe(false);
    expect(difyConnectionFieldsSchema.parse(fields({ baseUrl: "http://localhost/" })).baseUrl).toBe("http://localhost");
    await expect(createDifyConnection(db, researcher, fields(), PASSWORD)).rejects.toBeInstanceOf(AuthorizationError);
    const created = await createDifyConnection(db, admin, fields(), PASSWORD);
    await expect(deleteDifyConnection(db, researcher, created.id)).rejects.toBeInstanceOf(AuthorizationError);
    expect(await deleteDifyConnection(db, admin, created.id)).toBe(true);
    expect(await listDifyConnections(db, researcher)).toEqual([]);
  });
});
