import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const PURE_CORE_PATTERNS = [
  { group: ["react", "react-dom", "next", "next/*", "@prisma/*", "*generated/prisma*"], message: "lib/ is the pure core; move this to lib/server or components." },
  { group: ["node:*", "fs", "path", "child_process"], message: "lib/ is the pure core; do I/O in lib/server or scripts." },
  { group: ["server-only"], message: "Only lib/server modules are server-only." },
];
// What a model is sent may depend only on the instructions, the prompts, the skill and its own answers: generation
// code has no way to the benchmark's check files (check_pass_stage.json, check_resolve_stage.json) or what is built
// from them.
const HIDDEN_DATA_PATTERNS = [
  {
    group: ["@/lib/benchmark/turn", "@/lib/workflow/score", "@/lib/workflow/official-verdict", "@/lib/workflow/rule-judge", "**/import/benchmark-source", "**/benchmark/turn"],
    message: "Generation must not see the hidden check data; use lib/workflow/diagnose (instruction-only diagnostics).",
  },
];
const HIDDEN_DATA_PATHS = [
  { name: "@/lib/server/benchmark-files", importNames: ["readBenchmarkDir"], message: "Generation reads readGenerationInputs (instructions and prompts only)." },
];

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // CommonJS files (the CLI launcher and what it loads) can only load modules through require().
    files: ["**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // The pure core must run anywhere: no framework, database or filesystem imports.
    files: ["lib/**/*.ts"],
    ignores: ["lib/server/**", "lib/**/*.test.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: PURE_CORE_PATTERNS }],
    },
  },
  {
    // The command-line bundles (npm run score and others) carry these: esbuild keeps only the parts of zod a namespace
    // import uses, where a `z` import keeps all of it.
    files: ["lib/workflow/**/*.ts", "lib/benchmark/**/*.ts"],
    ignores: ["lib/**/*.test.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "ImportDeclaration[source.value='zod'][importKind='value'] > ImportSpecifier[imported.name='z'][importKind='value']",
          message: 'Use import * as z from "zod", which lets the bundler drop the parts of zod a command does not use.',
        },
      ],
    },
  },
  {
    files: ["lib/generation/**/*.ts"],
    ignores: ["lib/**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [...PURE_CORE_PATTERNS, ...HIDDEN_DATA_PATTERNS] }] },
  },
  {
    files: ["lib/server/generation/**/*.ts", "scripts/generate.ts"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: HIDDEN_DATA_PATTERNS, paths: HIDDEN_DATA_PATHS }] },
  },
  globalIgnores([".next/**", "out/**", "build/**", "next-env.d.ts", "generated/**", "data/**", "test-results/**", "playwright-report/**", "node_modules/**"]),
]);
