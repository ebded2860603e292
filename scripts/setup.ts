// Brings the database to a runnable state: Prisma client generated, migrations applied, demo data seeded when empty,
// and production safety checks. Used by `npm start`, `npm run dev` and the e2e harness; safe to run repeatedly.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createDatabaseClient } from "@/lib/server/db";
import { seedDemoData } from "@/lib/server/demo-data";
import { loadServerEnv, type ResolvedServerEnv } from "@/lib/server/env";
import { seedPublishedResults } from "@/lib/server/published";
import { describeMigration, migrateAnyDatabase } from "./lib/migrate";
import { createFirstAccounts, enforceNoDemoPasswords, firstAdminNotice } from "@/lib/server/startup-policy";
import { fingerprintFiles } from "./lib/fingerprint.cjs";
import { runPrisma } from "./prisma-offline.mjs";

const ROOT = path.resolve(__dirname, "..");
// What `prisma generate` writes generated/ from; generating again from the same inputs gives the same files.
const GENERATE_INPUTS = ["prisma/schema.prisma", "prisma/postgresql/schema.prisma", "package-lock.json", "scripts/prisma-offline.mjs"];
// Outside generated/, whose contents the app's build fingerprint covers.
const GENERATE_STATE = path.join("node_modules", ".cache", "studio-prisma-generate.json");

function clientsAreCurrent(fingerprint: string): boolean {
  if (!["prisma", "prisma-pg"].every((dir) => existsSync(path.join(ROOT, "generated", dir, "client.ts")))) return false;
  try {
    return (JSON.parse(readFileSync(path.join(ROOT, GENERATE_STATE), "utf8")) as { fingerprint?: string }).fingerprint === fingerprint;
  } catch {
    return false;
  }
}

function runPrismaStep(args: string[], env: ResolvedServerEnv): void {
  const result = runPrisma(args, { env: { ...process.env, DATABASE_URL: env.DATABASE_URL }, stdio: "pipe" });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ""}${result.stderr ?? ""}`);
    throw new Error(`prisma ${args.join(" ")} failed (exit ${result.status})`);
  }
}

export async function setup(options: { log?: (line: string) => void } = {}): Promise<ResolvedServerEnv> {
  const log = options.log ?? ((line: string) => console.log(line));
  const env = loadServerEnv();
  const elapsed = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
  let step = Date.now();
  const clients = fingerprintFiles(ROOT, GENERATE_INPUTS);
  if (clientsAreCurrent(clients.fingerprint)) {
    log("• the Prisma clients are current (schemas and packages unchanged since they were generated)");
  } else {
    log("• generating the Prisma clients (SQLite and PostgreSQL)…");
    // Both, whichever database DATABASE_URL names: lib/server/db.ts imports both clients.
    runPrismaStep(["generate", "--schema", path.join("prisma", "schema.prisma")], env);
    runPrismaStep(["generate", "--schema", path.join("prisma", "postgresql", "schema.prisma")], env);
    mkdirSync(path.dirname(path.join(ROOT, GENERATE_STATE)), { recursive: true });
    writeFileSync(path.join(ROOT, GENERATE_STATE), JSON.stringify({ fingerprint: clients.fingerprint }));
    log(`  generated in ${elapsed(step)}`);
  }
  step = Date.now();
  log(`• applying migrations to ${env.DATABASE_URL}…`);
  const migrated = describeMigration(await migrateAnyDatabase(env.DATABASE_URL));
  log(`  ${migrated ?? "the database is up to date"} (${elapsed(step)})`);

  const db = createDatabaseClient(env.DATABASE_URL);
  try {
    const published = await seedPublishedResults(db);
    if (published) log(`• seeded ${published} published results (the paper's Table 1)`);
    const first = await createFirstAccounts(db, env);
    if (first && "demo" in first) log(`• seeded ${first.demo} demo accounts (see README for their loopback-only passwords)`);
    if (first && "admin" in first) log(firstAdminNotice(first.admin, first.password));
    if (env.APP_ENV === "local" && !env.SKIP_DEMO_DATA && (await db.benchmark.count()) === 0) {
      const outcome = await seedDemoData(db);
      if (!outcome.ok) throw new Error(`demo data failed to import:\n${outcome.issues.map((problem) => `  ${problem.message}`).join("\n")}`);
      log(`• seeded the demo benchmark with ${outcome.runs.length} demo runs`);
    }
    await enforceNoDemoPasswords(db, env);
  } finally {
    await db.$disconnect();
  }
  return env;
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename);
if (invokedDirectly) {
  setup().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
