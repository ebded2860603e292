// Evaluates a model endpoint through the Chat2Workflow Studio HTTP API with fetch alone: starts an evaluation, polls
// it until it has finished, saves each run's pass records and bundle, and prints a JSON summary (progress on stderr).
//
//   C2W_API_URL=http://localhost:3000 C2W_API_TOKEN=c2w_... npx tsx examples/api-client.ts <benchmark> <endpoint> [out-dir]
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

const baseUrl = (process.env.C2W_API_URL ?? "http://localhost:3000").replace(/\/+$/, "");
const token = process.env.C2W_API_TOKEN ?? "";

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`HTTP ${status} ${code}: ${message}`);
  }
}

async function api(method: string, route: string, body?: unknown): Promise<Response> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const response = await fetch(`${baseUrl}${route}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (response.status === 429) {
      // The token's rate limit: wait as long as the server asks.
      await new Promise((resolve) => setTimeout(resolve, 1000 * Number(response.headers.get("retry-after") ?? "1")));
      continue;
    }
    if (!response.ok) {
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      throw new ApiError(response.status, error.code, error.message);
    }
    return response;
  }
  throw new ApiError(429, "rate_limited", "still rate limited after 5 tries");
}

const json = async <T>(method: string, route: string, body?: unknown): Promise<T> => (await api(method, route, body)).json() as Promise<T>;

interface Evaluation {
  id: string;
  status: string;
  runs: { id: string; turns: { total: number; stored: number; pass: number; fail: number } }[];
}

async function main(): Promise<number> {
  const [benchmark, endpoint, outDir = "."] = process.argv.slice(2);
  if (!benchmark || !endpoint) {
    console.error("usage: api-client.ts <benchmark id or slug> <endpoint id or label> [out-dir]");
    return 2;
  }
  const started = await json<{ id: string; runs: { id: string }[] }>("POST", "/api/v1/evaluations", { benchmark, endpoint, mode: "zero-shot", runs: 1, judge: { kind: "rule" } });
  console.error(`evaluation ${started.id} started`);
  let evaluation: Evaluation;
  for (;;) {
    evaluation = await json<Evaluation>("GET", `/api/v1/evaluations/${started.id}`);
    console.error(`  ${evaluation.status}: ${evaluation.runs.map((run) => `${run.turns.stored}/${run.turns.total}`).join(", ")} turns`);
    if (evaluation.status !== "running") break;
    await new Promise((resolve) => setTimeout(resolve, Number(process.env.C2W_POLL_MS ?? 2000)));
  }
  await mkdir(outDir, { recursive: true });
  const runs = [];
  for (const run of evaluation.runs) {
    const records = await json<{ valid: boolean }[]>("GET", `/api/v1/runs/${run.id}/pass-records`);
    const bundle = path.join(outDir, `bundle_${run.id}.zip`);
    await writeFile(bundle, new Uint8Array(await (await api("GET", `/api/v1/runs/${run.id}/bundle`)).arrayBuffer()));
    runs.push({ id: run.id, valid: records.filter((record) => record.valid).length, records: records.length, bundle });
  }
  const { rows } = await json<{ rows: unknown[] }>("GET", `/api/v1/leaderboard?benchmark=${encodeURIComponent(benchmark)}`);
  console.log(JSON.stringify({ evaluation: evaluation.id, status: evaluation.status, runs, leaderboardRows: rows.length }));
  return evaluation.status === "succeeded" ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
