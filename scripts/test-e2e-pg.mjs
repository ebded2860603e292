#!/usr/bin/env node
// `npm run test:e2e:pg`: the Playwright journeys against the app running on PostgreSQL (a throwaway local server, or
// the empty database C2W_TEST_POSTGRES_URL names), passed to scripts/e2e-server.ts as E2E_DATABASE_URL. Without
// PostgreSQL binaries it says why and skips, except under CI, where .ci/run installs them.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { postgresUnavailableReason, startPostgres } from "./pg-test-server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const reason = postgresUnavailableReason();
if (reason) {
  console.error(`${process.env.CI ? "error" : "skipping the PostgreSQL end-to-end run"}: ${reason}`);
  process.exit(process.env.CI ? 1 : 0);
}
const server = process.env.C2W_TEST_POSTGRES_URL ? null : await startPostgres();
let status = 1;
try {
  const playwright = path.join(root, "node_modules", "@playwright", "test", "cli.js");
  const env = { ...process.env, E2E_DATABASE_URL: process.env.C2W_TEST_POSTGRES_URL || server.url };
  const result = spawnSync(process.execPath, [playwright, "test", ...process.argv.slice(2)], { cwd: root, env, stdio: "inherit" });
  status = result.status ?? 1;
} finally {
  server?.stop();
}
process.exit(status);
