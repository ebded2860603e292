// Runs scripts/start.ts's startApp in a process of its own on a throwaway checkout (argv: root, next stub, port), with
// the database step stubbed, printing every progress line; SIGTERM stops its server and exits. For the start tests.
import { startApp } from "../../scripts/start";

const [root, nextBin, port] = process.argv.slice(2) as [string, string, string];

startApp({
  root,
  nextBin,
  port: Number(port),
  rebuild: false,
  build: true,
  prepare: async () => ({ PORT: Number(port), HOST: "127.0.0.1", DATABASE_URL: "file:unused.db", NEXTAUTH_SECRET: "start-test" }),
  log: (line) => console.log(line),
}).then(
  (app) => {
    process.on("SIGTERM", () => {
      app.server.kill("SIGTERM");
      void app.exited.then(() => process.exit(0));
    });
  },
  (error: unknown) => {
    console.log(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
