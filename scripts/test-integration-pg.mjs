#!/usr/bin/env node
// `npm run test:integration:pg`: the integration suite on PostgreSQL (vitest project "integration-pg"), on the
// server C2W_TEST_POSTGRES_URL names or a throwaway local one. Without PostgreSQL binaries it says why and skips,
// except under CI, where .ci/run installs them and a skip would hide a failure.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { postgresUnavailableReason, startPostgres } from "./pg-test-server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const reason = postgresUnavailableReason();
if (reason) {
  console.error(`${process.env.CI ? "error" : "skipping the PostgreSQL integration run"}: ${reason}`);
  process.exit(process.env.CI ? 1 : 0);
}
const server = process.env.C2W_TEST_POSTGRES_URL ? null : await startPostgres();
let status = 1;
try {
  const vitest = path.join(root, "node_modules", "vitest", "vitest.mjs");
  const env = { ...process.env, C2W_TEST_POSTGRES_URL: process.env.C2W_TEST_POSTGRES_URL || server.url };
  const result = spawnSync(process.execPath, [vitest, "run", "--project", "integration-pg", ...process.argv.slice(2)], { cwd: root, env, stdio: "inherit" });
  status = result.status ?? 1;
} finally {
  server?.stop();
}
process.exit(status);
