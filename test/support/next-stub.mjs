// Stands in for the `next` CLI in the start tests: `build` records itself in <root>/builds.log, takes
// NEXT_STUB_BUILD_MS and writes .next/BUILD_ID; `start -p <port> -H <host>` answers /api/health until stopped.
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";

const [command, , port, , host] = process.argv.slice(2);
if (command === "build") {
  appendFileSync(path.join(process.cwd(), "builds.log"), `${process.pid}\n`);
  setTimeout(() => {
    mkdirSync(path.join(process.cwd(), ".next"), { recursive: true });
    writeFileSync(path.join(process.cwd(), ".next", "BUILD_ID"), String(Date.now()));
  }, Number(process.env.NEXT_STUB_BUILD_MS ?? 200));
} else if (command === "start") {
  const server = http.createServer((request, response) => {
    response.statusCode = request.url === "/api/health" ? 200 : 404;
    response.end();
  });
  server.listen(Number(port), host);
  // Never outlives the start that launched it, even when that one is killed outright.
  const parent = process.ppid;
  setInterval(() => {
    try {
      process.kill(parent, 0);
    } catch {
      process.exit(0);
    }
  }, 500).unref();
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
} else {
  process.exit(2);
}
