// Brings the database to a runnable state: Prisma client generated, migrations applied, demo data seeded when empty,
// and production safety checks. Used by `npm start`, `npm run dev` and the e2e harness; safe to run repeatedly.
import path from "node:path";
import { createDatabaseClient } from "@/lib/server/db";
import { seedDemoData } from "@/lib/server/demo-data";
import { accountsWithDemoPasswords, seedDemoUsers } from "@/lib/server/demo-users";
import { loadServerEnv, type ResolvedServerEnv } from "@/lib/server/env";
import { seedPublishedResults } from "@/lib/server/published";
import { describeMigration, migrateDatabase } from "./lib/migrate";
import { runPrisma } from "./prisma-offline.mjs";

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
  log("• generating the Prisma client");
  runPrismaStep(["generate"], env);
  log(`• applying migrations to ${env.DATABASE_URL}`);
  const migrated = describeMigration(migrateDatabase(env.DATABASE_URL));
  log(migrated ? `• ${migrated}` : "• database is up to date");

  const db = createDatabaseClient(env.DATABASE_URL);
  try {
    const published = await seedPublishedResults(db);
    if (published) log(`• seeded ${published} published results (the paper's Table 1)`);
    if (env.APP_ENV === "local" && (await db.user.count()) === 0) {
      const created = await seedDemoUsers(db);
      log(`• seeded ${created} demo accounts (see README for their local-only passwords)`);
    }
    if (env.APP_ENV === "local" && !env.SKIP_DEMO_DATA && (await db.benchmark.count()) === 0) {
      const outcome = await seedDemoData(db);
      if (!outcome.ok) throw new Error(`demo data failed to import:\n${outcome.issues.map((problem) => `  ${problem.message}`).join("\n")}`);
      log(`• seeded the demo benchmark with ${outcome.runs.length} demo runs`);
    }
    if (env.APP_ENV === "production" && !env.ALLOW_DEMO_PASSWORDS) {
      const flagged = await accountsWithDemoPasswords(db);
      if (flagged.length > 0) {
        throw new Error(
          `Refusing to start in production: ${flagged.join(", ")} still use published demo passwords. ` +
            "Change them with `npm run user -- set-password --email <email> --password <new>` " +
            "or set ALLOW_DEMO_PASSWORDS=true to override.",
        );
      }
    }
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
