// Starts the production app for Playwright on a throwaway database (data/e2e.db, recreated each run).
import { rmSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..");
const databaseFile = path.join(ROOT, "data", "e2e.db");
for (const suffix of ["", "-journal", "-wal", "-shm"]) rmSync(`${databaseFile}${suffix}`, { force: true });

process.env.DATABASE_URL = `file:${databaseFile}`;
process.env.APP_ENV = "local";
process.env.PUBLIC_READ = process.env.PUBLIC_READ ?? "true";

void import("./start");
