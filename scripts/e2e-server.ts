// Starts the production app for Playwright on a throwaway database (data/e2e.db, recreated each run; or the empty
// PostgreSQL database E2E_DATABASE_URL names, which `npm run test:e2e:pg` starts), with the demo data and, when the
// shared Chat2Workflow benchmark is present, its benchmark and 12 recorded runs imported too.
// A stub judge's verdicts (test/support/stub-judge-seed.ts) on one demo run give the "judged by" journeys a judge.
// A loopback generation stub (test/support/generation-stub.ts, not a model) is started here on 127.0.0.1, with a model
// endpoint row pointing at it, for the evaluation journey; a replay stub and a judge stub serve the run-figures journey.
import { rmSync } from "node:fs";
import path from "node:path";
import { locateBenchmarkDir } from "../lib/server/benchmark-location";

const ROOT = path.resolve(__dirname, "..");
const databaseFile = path.join(ROOT, "data", "e2e.db");
const postgresUrl = process.env.E2E_DATABASE_URL;
if (postgresUrl && !/^postgres(ql)?:\/\//i.test(postgresUrl)) throw new Error(`E2E_DATABASE_URL must be a postgres:// URL (got ${postgresUrl})`);
if (!postgresUrl) for (const suffix of ["", "-journal", "-wal", "-shm"]) rmSync(`${databaseFile}${suffix}`, { force: true });

process.env.DATABASE_URL = postgresUrl ?? `file:${databaseFile}`;
process.env.APP_ENV = "local";
process.env.PUBLIC_READ = process.env.PUBLIC_READ ?? "true";

const shared = locateBenchmarkDir({ projectDir: ROOT });

async function importSharedBenchmark(): Promise<void> {
  if (!shared.ok) {
    console.log(`• ${shared.message} The e2e tests run on the demo data only.`);
    return;
  }
  const sharedBenchmark = shared.dir;
  const { setup } = await import("./setup");
  const { createDatabaseClient } = await import("@/lib/server/db");
  const { expandRunPaths, readImportFiles, runImport } = await import("@/lib/server/import/import-service");
  const env = await setup();
  const db = createDatabaseClient(env.DATABASE_URL);
  try {
    const { files } = await readImportFiles((await expandRunPaths([path.join(sharedBenchmark, "runs")])).files, 64 * 1024 * 1024);
    const outcome = await runImport(db, { benchmark: { kind: "directory", dir: sharedBenchmark }, runs: files, importedBy: "e2e" }, { maxFileBytes: 64 * 1024 * 1024, maxResponses: 100_000 });
    if (!outcome.ok) throw new Error(outcome.issues.map((issue) => issue.message).join("\n"));
    console.log(`• imported the shared benchmark and ${outcome.runs.length} runs for e2e`);
  } finally {
    await db.$disconnect();
  }
}

async function seedJudges(): Promise<void> {
  const { setup } = await import("./setup");
  const { createDatabaseClient } = await import("@/lib/server/db");
  const { seedStubJudge } = await import("../test/support/stub-judge-seed");
  const { DEMO_BENCHMARK_NAME } = await import("@/lib/server/demo-data");
  const env = await setup({ log: () => undefined });
  const db = createDatabaseClient(env.DATABASE_URL);
  try {
    const seeded = await seedStubJudge(db, DEMO_BENCHMARK_NAME, "demo_alpha");
    console.log(`• seeded ${seeded.passRows + seeded.resolveRows} stub-judge verdicts on demo_alpha for e2e`);
  } finally {
    await db.$disconnect();
  }
}

/** The endpoint label the evaluation journey picks. */
const GENERATION_STUB_LABEL = "Loopback generation stub (not a model)";

async function startGenerationStub(): Promise<void> {
  const { setup } = await import("./setup");
  const { createDatabaseClient } = await import("@/lib/server/db");
  const { startOpenAIStub } = await import("../test/support/openai-stub");
  const { generationStubHandler } = await import("../test/support/generation-stub");
  // Lives as long as this process, which stays up while it serves the app; each reply waits a little so the grid fills visibly.
  const stub = await startOpenAIStub(generationStubHandler(400), { record: false });
  const env = await setup({ log: () => undefined });
  const db = createDatabaseClient(env.DATABASE_URL);
  try {
    await db.modelEndpoint.create({
      data: { label: GENERATION_STUB_LABEL, baseUrl: stub.baseURL, model: "loopback-stub/fixed-workflow", temperature: 0.7, concurrency: 8, timeoutMs: 10_000, inputPricePerMTok: 1, outputPricePerMTok: 2, createdBy: "e2e" },
    });
    console.log(`• generation stub on ${stub.baseURL} with the endpoint "${GENERATION_STUB_LABEL}"`);
  } finally {
    await db.$disconnect();
  }
}

/** The endpoint the early-warning journey evaluates: a stub that never answers with tags, nor lists its model at /models. */
const TAGLESS_STUB_LABEL = "Loopback tagless stub (not a model)";

async function startTaglessStub(): Promise<void> {
  const { setup } = await import("./setup");
  const { createDatabaseClient } = await import("@/lib/server/db");
  const { fixedReply, startOpenAIStub } = await import("../test/support/openai-stub");
  // Slow enough (two calls at a time, 0.8 s each) that the journey sees the warning while the evaluation still runs.
  const stub = await startOpenAIStub(fixedReply("Here is a workflow for you, described in words only.\nIt has a start node and an end node.", 800), { record: false, models: ["loopback-stub/some-other-model"] });
  const env = await setup({ log: () => undefined });
  const db = createDatabaseClient(env.DATABASE_URL);
  try {
    await db.modelEndpoint.create({ data: { label: TAGLESS_STUB_LABEL, baseUrl: stub.baseURL, model: "loopback-stub/no-tags", temperature: 0.7, concurrency: 2, timeoutMs: 10_000, createdBy: "e2e" } });
    console.log(`• tagless stub on ${stub.baseURL} with the endpoint "${TAGLESS_STUB_LABEL}"`);
  } finally {
    await db.$disconnect();
  }
}

/** The endpoint labels the run-figures journey picks. */
const REPLAY_STUB_LABEL = "Loopback replay stub (not a model)";
const JUDGE_STUB_LABEL = "Loopback judge stub (not a model)";

/**
 * Two more loopback stubs for the run-figures journey: one answering the demo benchmark's questions with demo_alpha's
 * recorded answers (test/support/run-figures-stubs.ts), one judging step 1_4 by a fixed rule of the question's text.
 */
async function startRunFigureStubs(): Promise<void> {
  const { readFile } = await import("node:fs/promises");
  const { setup } = await import("./setup");
  const { createDatabaseClient } = await import("@/lib/server/db");
  const { parseQueryFile } = await import("@/lib/benchmark/dataset");
  const { startOpenAIStub } = await import("../test/support/openai-stub");
  const { keyNodeCountJudgeHandler, recordedAnswersHandler } = await import("../test/support/run-figures-stubs");
  const demo = path.join(ROOT, "prisma", "demo");
  const queryFile = path.join(demo, "benchmark", "dataset", "query.json");
  const tasks = parseQueryFile(queryFile, JSON.parse(await readFile(queryFile, "utf8")));
  if (!tasks.ok) throw new Error(tasks.issues.map((issue) => issue.message).join("\n"));
  const records = JSON.parse(await readFile(path.join(demo, "runs", "demo_alpha.json"), "utf8"));
  const replay = await startOpenAIStub(recordedAnswersHandler(tasks.value, records, 50), { record: false });
  const judge = await startOpenAIStub(keyNodeCountJudgeHandler(50), { record: false });
  const env = await setup({ log: () => undefined });
  const db = createDatabaseClient(env.DATABASE_URL);
  try {
    const common = { temperature: 0.7, concurrency: 8, timeoutMs: 10_000, createdBy: "e2e" };
    await db.modelEndpoint.create({ data: { ...common, label: REPLAY_STUB_LABEL, baseUrl: replay.baseURL, model: "loopback-replay/demo-alpha-answers" } });
    await db.modelEndpoint.create({ data: { ...common, label: JUDGE_STUB_LABEL, baseUrl: judge.baseURL, model: "loopback-judge/key-node-count" } });
    console.log(`• replay stub on ${replay.baseURL} and judge stub on ${judge.baseURL} for the run-figures journey`);
  } finally {
    await db.$disconnect();
  }
}

importSharedBenchmark()
  .then(seedJudges)
  .then(startGenerationStub)
  .then(startRunFigureStubs)
  .then(startTaglessStub)
  .then(async () => (await import("./start")).runStart(process.argv.slice(2)))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
