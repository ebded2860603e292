// The authorization matrix, generated from ENDPOINT_ACCESS: every server action and route handler is called as each
// of admin, researcher, annotator, viewer and anonymous. Roles without the permission are refused (the action's
// refusal, or 401/403) and the database is unchanged; roles with it get past the check. The HTTP API's routes are
// called with each role's access token (anonymous: none), as API clients call them. An endpoint missing from the
// table, or from the calls below, fails the test.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ENDPOINT_ACCESS, JOB_OWNER_ENDPOINTS, TOKEN_ROUTE_PREFIX } from "@/lib/auth/endpoint-access";
import { issueApiToken } from "@/lib/server/tokens";
import { can } from "@/lib/auth/roles";
import { emptyDatabase, testDatabase } from "../../support/database";
import { ACTORS, ensureRoleUsers, signInAs, signInAsUser, type Actor } from "../../support/session-mock";
import { tableCounts } from "../../support/table-counts";

vi.mock("next-auth", async (original) => ({ ...(await original<typeof import("next-auth")>()), ...(await import("../../support/session-mock")).nextAuthMock }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined, revalidateTag: () => undefined }));

const ROOT = path.resolve(__dirname, "../../..");
const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const ROLE_REFUSALS = ["Sign in to do this.", "Your role does not allow this action."];

function files(dir: string, match: (name: string) => boolean): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) found.push(...files(full, match));
    else if (match(entry)) found.push(full);
  }
  return found;
}

/** Every endpoint in the code: server action exports and route handler methods, as "<file>#<export>". */
async function endpointsInCode(): Promise<string[]> {
  const names: string[] = [];
  for (const file of files(path.join(ROOT, "app/actions"), (name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))) {
    const loaded = (await import(file)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(loaded)) if (typeof value === "function") names.push(`${path.relative(ROOT, file)}#${name}`);
  }
  for (const file of files(path.join(ROOT, "app"), (name) => name === "route.ts")) {
    const loaded = (await import(file)) as Record<string, unknown>;
    for (const method of HTTP_METHODS) if (typeof loaded[method] === "function") names.push(`${path.relative(ROOT, file)}#${method}`);
  }
  return names.sort();
}

type Outcome = { refused: boolean; detail: string };

const params = <T>(value: T) => ({ params: Promise.resolve(value) });
const get = (url: string) => new Request(`http://127.0.0.1:3000${url}`);

/** One call per endpoint, with input that passes no further than the access check would need (nothing is written). */
const CALLS: Record<string, () => Promise<Outcome>> = {};
function action(key: string, call: (exports: Record<string, (input: never) => Promise<{ ok: boolean; message?: string }>>) => Promise<{ ok: boolean; message?: string }>) {
  CALLS[key] = async () => {
    const loaded = (await import(path.join(ROOT, key.split("#")[0]!))) as Record<string, (input: never) => Promise<{ ok: boolean; message?: string }>>;
    const result = await call(loaded);
    return { refused: !result.ok && ROLE_REFUSALS.includes(result.message ?? ""), detail: JSON.stringify(result) };
  };
}
function route(key: string, call: (handler: (...args: never[]) => Promise<Response>) => Promise<Response>) {
  CALLS[key] = async () => {
    const [file, method] = key.split("#") as [string, string];
    const loaded = (await import(path.join(ROOT, file))) as Record<string, (...args: never[]) => Promise<Response>>;
    const response = await call(loaded[method]!);
    return { refused: response.status === 401 || response.status === 403, detail: `HTTP ${response.status}` };
  };
}

/** Each role's API access token (made in beforeAll); anonymous callers send none. */
const apiTokens = new Map<Actor, string>();
let currentActor: Actor = "anonymous";

/** An /api/v1 call as the current actor, with its token. */
function apiRoute(key: string, url: string, init: { method?: string; body?: unknown } = {}, routeParams: Record<string, string> = {}) {
  route(key, (handler) => {
    const token = apiTokens.get(currentActor);
    const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.body !== undefined ? { "content-type": "application/json" } : {}) };
    const request = new Request(`http://127.0.0.1:3000${url}`, { method: init.method ?? "GET", headers, ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}) });
    return handler(request as never, params(routeParams) as never);
  });
}

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
};

action("app/actions/review.ts#createQueueAction", (m) => m.createQueueAction!({} as never));
action("app/actions/review.ts#createDerivedQueueAction", (m) => m.createDerivedQueueAction!({} as never));
action("app/actions/review.ts#assignAnnotatorsAction", (m) => m.assignAnnotatorsAction!({ queueId: "no-such-queue", userIds: [] } as never));
action("app/actions/review.ts#unassignAnnotatorAction", (m) => m.unassignAnnotatorAction!({ queueId: "", userId: "" } as never));
action("app/actions/review.ts#claimReviewItemAction", (m) => m.claimReviewItemAction!({ queueId: "no-such-queue", request: { kind: "resume" } } as never));
action("app/actions/review.ts#renewReviewLockAction", (m) => m.renewReviewLockAction!({ itemId: "no-such-item" } as never));
action("app/actions/review.ts#submitVoteAction", (m) => m.submitVoteAction!({ itemId: "no-such-item", judgeCorrect: "correct" } as never));
action("app/actions/endpoints.ts#createEndpointAction", (m) => m.createEndpointAction!({} as never));
action("app/actions/endpoints.ts#updateEndpointAction", (m) => m.updateEndpointAction!({ id: "no-such-endpoint" } as never));
action("app/actions/endpoints.ts#deleteEndpointAction", (m) => m.deleteEndpointAction!({ id: "no-such-endpoint" } as never));
action("app/actions/endpoints.ts#testEndpointAction", (m) => m.testEndpointAction!({ id: "no-such-endpoint" } as never));
action("app/actions/dify-connections.ts#createDifyConnectionAction", (m) => m.createDifyConnectionAction!({} as never));
action("app/actions/dify-connections.ts#updateDifyConnectionAction", (m) => m.updateDifyConnectionAction!({ id: "no-such-connection" } as never));
action("app/actions/dify-connections.ts#deleteDifyConnectionAction", (m) => m.deleteDifyConnectionAction!({ id: "no-such-connection" } as never));
action("app/actions/dify-connections.ts#testDifyConnectionAction", (m) => m.testDifyConnectionAction!({ id: "no-such-connection" } as never));
action("app/actions/dify-execution.ts#startDifyExecutionAction", (m) => m.startDifyExecutionAction!({} as never));
action("app/actions/dify-execution.ts#startResolveJudgingAction", (m) => m.startResolveJudgingAction!({} as never));
action("app/actions/dry-run.ts#startDryRunAction", (m) => m.startDryRunAction!({} as never));
action("app/actions/evaluations.ts#startEvaluationAction", (m) => m.startEvaluationAction!({ benchmarkId: "no-such-benchmark", endpointId: "no-such-endpoint", mode: "zero-shot" } as never));
action("app/actions/evaluations.ts#cancelEvaluationAction", (m) => m.cancelEvaluationAction!({ evaluationId: "no-such-evaluation" } as never));
action("app/actions/jobs.ts#startJudgeJobAction", (m) => m.startJudgeJobAction!({} as never));
action("app/actions/jobs.ts#controlJobAction", (m) => m.controlJobAction!({ jobId: "no-such-job", control: "cancel" } as never));
action("app/actions/judges.ts#createDisagreementQueueAction", (m) => m.createDisagreementQueueAction!({} as never));
action("app/actions/grading.ts#gradeRunWithEvidenceAction", (m) => m.gradeRunWithEvidenceAction!({ runId: "no-such-run", rubricFile: "chat2workflow.yaml" } as never));
action("app/actions/pairwise.ts#startPairwiseAction", (m) => m.startPairwiseAction!({} as never));
action("app/actions/run-actions.ts#deleteRunAction", (m) => m.deleteRunAction!({ runId: "no-such-run" } as never));
action("app/actions/run-actions.ts#rescoreRunAction", (m) => m.rescoreRunAction!({ runId: "no-such-run" } as never));
action("app/actions/settings.ts#setDefaultBenchmarkAction", (m) => m.setDefaultBenchmarkAction!({ benchmarkId: "no-such-benchmark" } as never));
action("app/actions/settings.ts#setCozeGithubTokenAction", (m) => m.setCozeGithubTokenAction!({ token: 42 } as never));
action("app/actions/start-import.ts#startDirectoryImport", (m) => m.startDirectoryImport!(form({ mode: "directory", benchmarkDir: "/no/such/dir" }) as never));
route("app/api/export/leaderboard/route.ts#GET", (handler) => handler(get("/api/export/leaderboard?source=published&format=json") as never));
route("app/api/evaluations/[id]/route.ts#GET", (handler) => handler(get("/api/evaluations/no-such-evaluation") as never, params({ id: "no-such-evaluation" }) as never));
route("app/api/health/route.ts#GET", (handler) => handler());
route("app/api/imports/route.ts#POST", (handler) => handler(new Request("http://127.0.0.1:3000/api/imports", { method: "POST", body: form({ mode: "upload" }) }) as never));
route("app/api/imports/[id]/route.ts#GET", (handler) => handler(get("/api/imports/no-such-job") as never, params({ id: "no-such-job" }) as never));
route("app/api/search/route.ts#GET", (handler) => handler(get("/api/search?q=gpt") as never));
route("app/api/jobs/route.ts#GET", (handler) => handler(get("/api/jobs") as never));
route("app/api/jobs/[id]/route.ts#GET", (handler) => handler(get("/api/jobs/no-such-job") as never, params({ id: "no-such-job" }) as never));
route("app/runs/[runId]/download/resolve-records/route.ts#GET", (handler) => handler(get("/runs/none/download/resolve-records") as never, params({ runId: "none" }) as never));
route("app/responses/[responseId]/coze/route.ts#GET", (handler) => handler(get("/responses/none/coze") as never, params({ responseId: "none" }) as never));
route("app/responses/[responseId]/dry-run-file/route.ts#GET", (handler) => handler(get("/responses/none/dry-run-file?case=1&step=0&file=0") as never, params({ responseId: "none" }) as never));
route("app/runs/[runId]/download/responses/route.ts#GET", (handler) => handler(get("/runs/none/download/responses") as never, params({ runId: "none" }) as never));
route("app/runs/[runId]/download/pass-records/route.ts#GET", (handler) => handler(get("/runs/none/download/pass-records") as never, params({ runId: "none" }) as never));
route("app/api/responses/[responseId]/text/route.ts#GET", (handler) => handler(get("/api/responses/none/text?field=raw") as never, params({ responseId: "none" }) as never));
route("app/api/review/export/route.ts#GET", async (handler) => {
  const { NextRequest } = await import("next/server");
  return handler(new NextRequest("http://127.0.0.1:3000/api/review/export?format=json") as never);
});
action("app/actions/tokens.ts#createTokenAction", (m) => m.createTokenAction!({} as never));
action("app/actions/tokens.ts#revokeTokenAction", (m) => m.revokeTokenAction!({ id: "no-such-token" } as never));
action("app/actions/users.ts#inviteUserAction", (m) => m.inviteUserAction!({} as never));
action("app/actions/users.ts#setUserRoleAction", (m) => m.setUserRoleAction!({ userId: "no-such-user", role: "viewer" } as never));
action("app/actions/users.ts#resetUserPasswordAction", (m) => m.resetUserPasswordAction!({ userId: "no-such-user" } as never));
action("app/actions/users.ts#setUserDisabledAction", (m) => m.setUserDisabledAction!({ userId: "no-such-user", disabled: true } as never));
route("app/runs/[runId]/download/bundle/route.ts#GET", (handler) => handler(get("/runs/none/download/bundle") as never, params({ runId: "none" }) as never));
apiRoute("app/api/v1/openapi.json/route.ts#GET", "/api/v1/openapi.json");
apiRoute("app/api/v1/benchmarks/route.ts#GET", "/api/v1/benchmarks");
apiRoute("app/api/v1/model-endpoints/route.ts#GET", "/api/v1/model-endpoints");
apiRoute("app/api/v1/model-endpoints/route.ts#POST", "/api/v1/model-endpoints", { method: "POST", body: {} });
apiRoute("app/api/v1/dify-connections/route.ts#POST", "/api/v1/dify-connections", { method: "POST", body: {} });
apiRoute("app/api/v1/evaluations/route.ts#POST", "/api/v1/evaluations", { method: "POST", body: {} });
apiRoute("app/api/v1/evaluations/[id]/route.ts#GET", "/api/v1/evaluations/none", {}, { id: "none" });
apiRoute("app/api/v1/evaluations/[id]/cancel/route.ts#POST", "/api/v1/evaluations/none/cancel", { method: "POST" }, { id: "none" });
apiRoute("app/api/v1/runs/[id]/pass-records/route.ts#GET", "/api/v1/runs/none/pass-records", {}, { id: "none" });
apiRoute("app/api/v1/runs/[id]/resolve-records/route.ts#GET", "/api/v1/runs/none/resolve-records", {}, { id: "none" });
apiRoute("app/api/v1/runs/[id]/bundle/route.ts#GET", "/api/v1/runs/none/bundle", {}, { id: "none" });
apiRoute("app/api/v1/leaderboard/route.ts#GET", "/api/v1/leaderboard?benchmark=none");
route("app/api/review/matching/route.ts#GET", async (handler) => {
  const { NextRequest } = await import("next/server");
  return handler(new NextRequest("http://127.0.0.1:3000/api/review/matching?benchmarkId=none&stage=pass") as never);
});

function expectedAllowed(key: string, access: string, actor: Actor): boolean {
  if (access === "public") return true;
  // The API takes access tokens only: without one even reading is refused, whatever PUBLIC_READ says.
  if (key.startsWith(TOKEN_ROUTE_PREFIX) && actor === "anonymous") return false;
  if (actor === "anonymous") return access === "read"; // PUBLIC_READ is on (the default)
  return can(actor, access as Parameters<typeof can>[1]);
}

describe("authorization matrix", () => {
  const db = testDatabase();
  beforeAll(async () => {
    await emptyDatabase(db);
    await ensureRoleUsers(db);
    for (const actor of ACTORS) {
      if (actor === "anonymous") continue;
      const issued = await issueApiToken(db, `user-${actor}`, { name: "matrix" });
      if (issued.ok) apiTokens.set(actor, issued.token);
    }
  });

  it("has exactly one table entry for every server action and route handler", async () => {
    const inCode = await endpointsInCode();
    expect(inCode.length).toBeGreaterThan(10);
    expect(inCode).toEqual(Object.keys(ENDPOINT_ACCESS).sort());
  });

  // The next-auth handlers are the sign-in machinery itself (public by design); they need a running Next.js server.
  const invoked = Object.entries(ENDPOINT_ACCESS).filter(([key]) => !key.startsWith("app/api/auth/"));

  it("has a call for every endpoint it can invoke", () => {
    expect(invoked.map(([key]) => key).filter((key) => !CALLS[key])).toEqual([]);
  });

  for (const [key, access] of invoked) {
    it(`${key} (${access}): refuses exactly the roles without it, changing nothing`, async () => {
      for (const actor of ACTORS) {
        signInAs(actor);
        currentActor = actor;
        const before = await tableCounts(db);
        const outcome = await CALLS[key]!();
        const allowed = expectedAllowed(key, access, actor);
        expect({ actor, refused: outcome.refused }, outcome.detail).toEqual({ actor, refused: !allowed });
        if (!allowed) expect(await tableCounts(db)).toEqual(before);
      }
    });
  }
});

/** What each job endpoint lets `userId` do with the job `jobId` (created by someone): see it, or steer it. */
const JOB_CALLS: Record<string, (jobId: string) => Promise<boolean>> = {
  "app/api/jobs/route.ts#GET": async (jobId) => {
    const { GET } = await import("@/app/api/jobs/route");
    const body = (await (await GET(get("/api/jobs"))).json()) as { jobs: { id: string }[] };
    return body.jobs.some((job) => job.id === jobId);
  },
  "app/api/jobs/[id]/route.ts#GET": async (jobId) => {
    const { GET } = await import("@/app/api/jobs/[id]/route");
    return (await GET(get(`/api/jobs/${jobId}`), params({ id: jobId }) as never)).status === 200;
  },
  "app/actions/jobs.ts#controlJobAction": async (jobId) => {
    const { controlJobAction } = await import("@/app/actions/jobs");
    // Pausing a queued job and resuming it leaves it as it was.
    const paused = await controlJobAction({ jobId, control: "pause" });
    if (paused.ok) await controlJobAction({ jobId, control: "resume" });
    return paused.ok;
  },
  "app/api/imports/[id]/route.ts#GET": async (jobId) => {
    const { GET } = await import("@/app/api/imports/[id]/route");
    return (await GET(get(`/api/imports/${jobId}`), params({ id: jobId }) as never)).status === 200;
  },
};

describe("authorization matrix: jobs per owner", () => {
  const db = testDatabase();
  const owner = { id: "user-researcher", sessionVersion: 0 };
  const otherResearcher = { id: "user-researcher-2", sessionVersion: 0 };
  const admin = { id: "user-admin", sessionVersion: 0 };
  let jobId = "";
  beforeAll(async () => {
    await emptyDatabase(db);
    await ensureRoleUsers(db);
    await db.user.create({ data: { id: otherResearcher.id, email: "researcher-2@matrix.test", role: "researcher", passwordHash: "x" } });
    // An import job (a job of every kind is private the same way), queued, started by the researcher.
    jobId = (await db.job.create({ data: { kind: "import", params: JSON.stringify({ files: 1 }), createdBy: owner.id, itemCount: 1, items: { create: [{ key: "import", payload: "{}" }] } } })).id;
  });

  it("covers every endpoint that reads or steers jobs", () => {
    // Route handlers under /api/jobs and /api/imports/[id], and the job controls (starting a job is not about one).
    const jobEndpoints = Object.keys(ENDPOINT_ACCESS).filter((key) => /^app\/api\/(jobs|imports\/\[id\])\/|#controlJobAction$/.test(key));
    expect(jobEndpoints.length).toBe(4);
    expect([...JOB_OWNER_ENDPOINTS].sort()).toEqual(jobEndpoints.sort());
    expect(Object.keys(JOB_CALLS).sort()).toEqual([...JOB_OWNER_ENDPOINTS].sort());
  });

  for (const key of JOB_OWNER_ENDPOINTS) {
    it(`${key}: the job's owner and admins get it, another researcher does not`, async () => {
      const outcomes: Record<string, boolean> = {};
      for (const [name, user] of Object.entries({ owner, otherResearcher, admin })) {
        signInAsUser(user.id, user.sessionVersion);
        outcomes[name] = await JOB_CALLS[key]!(jobId);
      }
      expect(outcomes).toEqual({ owner: true, otherResearcher: false, admin: true });
      // Another researcher's pause changed nothing; the owner's pause was undone by their resume.
      expect(["queued", "running"]).toContain((await db.job.findUniqueOrThrow({ where: { id: jobId } })).status);
    });
  }
});
