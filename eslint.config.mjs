import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The pure core must run anywhere: no framework, database or filesystem imports.
    files: ["lib/**/*.ts"],
    ignores: ["lib/server/**", "lib/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["react", "react-dom", "next", "next/*", "@prisma/*", "*generated/prisma*"], message: "lib/ is the pure core; move this to lib/server or components." },
            { group: ["node:*", "fs", "path", "child_process"], message: "lib/ is the pure core; do I/O in lib/server or scripts." },
            { group: ["server-only"], message: "Only lib/server modules are server-only." },
          ],
        },
      ],
    },
  },
  globalIgnores([".next/**", "out/**", "build/**", "next-env.d.ts", "generated/**", "data/**", "test-results/**", "playwright-report/**", "node_modules/**"]),
]);
