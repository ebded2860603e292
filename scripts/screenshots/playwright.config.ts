// `npm run screenshots`: the documentation's pictures (docs/screenshots/), taken in Chromium from the production build
// on the e2e server's data, plus a second server whose only model pools three shared runs for the stability view.
import path from "node:path";
import { defineConfig } from "@playwright/test";
import e2e from "../../playwright.config";

const PORT = Number(process.env.E2E_PORT ?? 3100);
/** The stability illustration's server; set it when PORT + 1000 is taken. */
export const STABILITY_PORT = Number(process.env.SCREENSHOTS_STABILITY_PORT ?? PORT + 1000);
// The e2e server, started from the project root (a config's commands otherwise run in its own folder).
const e2eServer = { ...(Array.isArray(e2e.webServer) ? e2e.webServer[0]! : e2e.webServer!), cwd: path.resolve(__dirname, "..", "..") };

export default defineConfig({
  ...e2e,
  testDir: __dirname,
  testMatch: "*.shots.ts",
  outputDir: "../../test-results/screenshots",
  retries: 0,
  timeout: 600_000,
  webServer: [
    e2eServer,
    {
      ...e2eServer,
      command: `npx tsx --conditions=react-server scripts/screenshots/stability-server.ts --port ${STABILITY_PORT} --no-build`,
      url: `http://localhost:${STABILITY_PORT}/api/health`,
    },
  ],
});
