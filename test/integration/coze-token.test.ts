// The GitHub token Coze packages carry: set on the settings page (encrypted at rest, never shown back but for its last
// four characters), written into the HTTP nodes of downloads made by those who manage endpoints, and "EMPTY" in
// everyone else's, as the official converter writes without a token.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { COZE_GITHUB_TOKEN_KEY, getCozeGithubTokenState } from "@/lib/server/data/settings";
import { cozePackage, parseCozeYaml } from "@/lib/workflow/coze-package";
import { difyAppName } from "@/lib/workflow/dify-dsl";
import { parseResponse, storedResponseInput } from "@/lib/workflow/response";
import { readZip } from "@/lib/zip/zip";
import { testDatabase } from "../support/database";
import { freshDemoDatabase } from "../support/demo-database";
import { ensureRoleUsers, signInAs, type Actor } from "../support/session-mock";

vi.mock("next-auth", async (original) => ({ ...(await original<typeof import("next-auth")>()), ...(await import("../support/session-mock")).nextAuthMock }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined, revalidateTag: () => undefined }));

const TOKEN = "github_pat_test_token_9f3c";

type Tree = Record<string, unknown>;

describe("the Coze export's GitHub token", () => {
  const db = testDatabase();
  let responseId = "";

  beforeAll(async () => {
    await freshDemoDatabase(db);
    await ensureRoleUsers(db);
    const responses = await db.response.findMany({ include: { turn: { include: { task: true } } } });
    // A demo response with an HTTP node that the official Coze converter converts.
    const withHttp = responses.find((response) => {
      const parsed = parseResponse(storedResponseInput(response));
      return parsed.json.ok && JSON.stringify(parsed.json.value).includes('"http-request"') && cozePackage(parsed.json.value, difyAppName(response.turn.task.name, response.turn.round)).ok;
    });
    if (!withHttp) throw new Error("the demo data has no Coze-convertible response with an HTTP node");
    responseId = withHttp.id;
  });

  async function bearerTokens(actor: Actor): Promise<string[]> {
    signInAs(actor);
    const { GET } = await import("@/app/responses/[responseId]/coze/route");
    const response = await GET(new Request(`http://127.0.0.1:3000/responses/${responseId}/coze`) as never, { params: Promise.resolve({ responseId }) } as never);
    expect(response.status).toBe(200);
    const entries = readZip(new Uint8Array(await response.arrayBuffer()));
    if (!entries.ok) throw new Error(entries.issues[0]);
    const workflow = parseCozeYaml(new TextDecoder().decode(entries.value[1]?.data));
    if (!workflow.ok) throw new Error(workflow.issues[0]);
    const nodes = ((workflow.value as Tree).nodes as Tree[]).flatMap((node) => [node, ...((node.nodes as Tree[] | undefined) ?? [])]);
    const http = nodes.filter((node) => node.type === "http");
    expect(http.length).toBeGreaterThan(0);
    return http.map((node) => ((((node.parameters as Tree).auth as Tree).authData as Tree).bearerTokenData as { input: { value: string } }[])[0]!.input.value);
  }

  it("is EMPTY in every package while none is set", async () => {
    for (const actor of ["admin", "viewer", "anonymous"] as const) expect(new Set(await bearerTokens(actor)), actor).toEqual(new Set(["EMPTY"]));
  });

  it("is stored encrypted and shown back only as its last four characters", async () => {
    signInAs("admin");
    const { setCozeGithubTokenAction } = await import("@/app/actions/settings");
    expect(await setCozeGithubTokenAction({ token: `  ${TOKEN} ` })).toEqual({ ok: true, value: null });
    const stored = await db.setting.findUniqueOrThrow({ where: { key: COZE_GITHUB_TOKEN_KEY } });
    expect(stored.value).not.toContain(TOKEN);
    expect(stored.value.startsWith("v1.")).toBe(true);
    expect(await getCozeGithubTokenState(db, { id: "user-admin", email: "", name: null, role: "admin" })).toEqual({ configured: true, hint: "9f3c" });
  });

  it("is written where the official writes github_rest_token, only in the packages of those who manage endpoints", async () => {
    expect(new Set(await bearerTokens("admin"))).toEqual(new Set([TOKEN]));
    for (const actor of ["researcher", "annotator", "viewer", "anonymous"] as const) expect(new Set(await bearerTokens(actor)), actor).toEqual(new Set(["EMPTY"]));
  });

  it("may not be changed by a researcher, and an empty token clears it", async () => {
    const { setCozeGithubTokenAction } = await import("@/app/actions/settings");
    signInAs("researcher");
    expect(await setCozeGithubTokenAction({ token: "other" })).toMatchObject({ ok: false, error: "forbidden" });
    signInAs("admin");
    expect(await setCozeGithubTokenAction({ token: "" })).toEqual({ ok: true, value: null });
    expect(await db.setting.count({ where: { key: COZE_GITHUB_TOKEN_KEY } })).toBe(0);
    expect(new Set(await bearerTokens("admin"))).toEqual(new Set(["EMPTY"]));
  });
});
