#!/usr/bin/env node
// `npm run test:integration:pg` and `npm run test:e2e:pg`: one test layer on PostgreSQL, on a throwaway local server
// or the one C2W_TEST_POSTGRES_URL names. Integration: the vitest project "integration-pg" (a database per test file,
// copied from a migrated template). End to end: Playwright, with the app on that server (E2E_DATABASE_URL, read by
// scripts/e2e-server.ts). Without PostgreSQL binaries it says why and skips, except under CI, where .ci/run installs
// them and a skip would hide a failure. Further arguments go to vitest or Playwright.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { postgresUnavailableReason, startPostgres } from "./pg-test-server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LAYERS = {
  integration: (url) => ({ args: [path.join(root, "node_modules", "vitest", "vitest.mjs"), "run", "--project", "integration-pg"], env: { C2W_TEST_POSTGRES_URL: url } }),
  e2e: (url) => ({ args: [path.join(root, "node_modules", "@playwright", "test", "cli.js"), "test"], env: { E2E_DATABASE_URL: url } }),
};
const [layer, ...rest] = process.argv.slice(2);
if (!Object.hasOwn(LAYERS, layer ?? "")) {
  console.error(`usage: node scripts/test-on-postgres.mjs ${Object.keys(LAYERS).join("|")} [arguments for the runner]`);
  process.exit(2);
}
const reason = postgresUnavailableReason();
if (reason) {
  console.error(`${process.env.CI ? "error" : `skipping the PostgreSQL ${layer} run`}: ${reason}`);
  process.exit(process.env.CI ? 1 : 0);
}
const server = process.env.C2W_TEST_POSTGRES_URL ? null : await startPostgres();
let status = 1;
try {
  const runner = LAYERS[layer](process.env.C2W_TEST_POSTGRES_URL || server.url);
  const result = spawnSync(process.execPath, [...runner.args, ...rest], { cwd: root, env: { ...process.env, ...runner.env }, stdio: "inherit" });
  status = result.status ?? 1;
} finally {
  server?.stop();
}
process.exit(status);
