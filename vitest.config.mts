import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL("./", import.meta.url));

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
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts", "lib/server/**/*.test.ts"],
          globalSetup: ["test/support/integration-global-setup.ts"],
          setupFiles: ["test/support/integration-setup.ts"],
          environment: "node",
          pool: "forks",
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
