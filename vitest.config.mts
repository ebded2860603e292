import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { postgresUnavailableReason } from "./scripts/pg-test-server.mjs";

const root = fileURLToPath(new URL("./", import.meta.url));

const integration = {
  include: ["test/integration/**/*.test.ts", "lib/server/**/*.test.ts"],
  globalSetup: ["test/support/integration-global-setup.ts"],
  setupFiles: ["test/support/integration-setup.ts"],
  environment: "node",
  pool: "forks",
  testTimeout: 120_000,
  hookTimeout: 120_000,
  fileParallelism: false,
} as const;

// Tests of SQLite itself (its file locking and busy handling) have no PostgreSQL counterpart; tests that use no
// database (npm start's build decisions) need not run twice.
const SQLITE_ONLY = ["test/integration/database-busy.test.ts", "test/integration/start.test.ts"];

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\//, replacement: root },
      // Server modules guard themselves with `server-only`; tests and CLIs are trusted server code.
      { find: /^server-only$/, replacement: `${root}test/support/server-only-stub.ts` },
    ],
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["lib/server/**"],
          environment: "node",
          // Corpus tests read all recorded runs; speed lives in the benchmarks, so a busy machine must not fail them.
          testTimeout: 30_000,
        },
      },
      { extends: true, test: { name: "integration", ...integration } },
      // The same suite on PostgreSQL: `npm run test:integration:pg` (scripts/test-on-postgres.mjs). Left out where
      // no server can be had (no binaries, no C2W_TEST_POSTGRES_URL); that script says so and skips.
      ...(postgresUnavailableReason() === null ? [{ extends: true as const, test: { name: "integration-pg", ...integration, exclude: SQLITE_ONLY } }] : []),
    ],
  },
});
