// `npm start`'s build decisions, on a throwaway checkout with `next` replaced by a stub (test/support/next-stub.mjs)
// and the database step stubbed: a second start on an unchanged checkout serves without building, new modification
// times alone never rebuild, a changed source or public variable does, no build runs under a running server from the
// same checkout, and two starts that both need a build build once.
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const NEXT_STUB = path.join(ROOT, "test", "support", "next-stub.mjs");
const DRIVER = path.join(ROOT, "test", "support", "start-driver.ts");

let checkout = "";
const running: ChildProcess[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Start {
  child: ChildProcess;
  lines: string[];
  /** Resolves with the output once the start is ready, or has failed and exited. */
  settled: Promise<string[]>;
}

async function start(env: Record<string, string> = {}): Promise<Start> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", DRIVER, checkout, NEXT_STUB, String(port)], {
    cwd: ROOT,
    env: { ...process.env, NEXT_STUB_BUILD_MS: "1500", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  running.push(child);
  const lines: string[] = [];
  const settled = new Promise<string[]>((resolve) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      if (lines.some((line) => line.startsWith("• ready: "))) resolve(lines);
    });
    child.once("exit", () => resolve(lines));
  });
  return { child, lines, settled };
}

async function stop(started: Start): Promise<void> {
  if (started.child.exitCode !== null) return;
  const exited = new Promise((resolve) => started.child.once("exit", resolve));
  started.child.kill("SIGTERM");
  await exited;
}

const builds = () => (existsSync(path.join(checkout, "builds.log")) ? readFileSync(path.join(checkout, "builds.log"), "utf8").split("\n").filter(Boolean).length : 0);

beforeAll(() => {
  checkout = mkdtempSync(path.join(os.tmpdir(), "c2w-start-"));
  for (const [file, text] of Object.entries({
    "app/page.tsx": "export default function Page() { return null; }\n",
    "lib/answer.ts": "export const answer = 42;\n",
    "lib/answer.test.ts": "// tests are not built\n",
    "generated/prisma/client.ts": "export const client = 1;\n",
    "next.config.ts": "export default {};\n",
  })) {
    mkdirSync(path.dirname(path.join(checkout, file)), { recursive: true });
    writeFileSync(path.join(checkout, file), text);
  }
  // The installed-packages check reads npm's record of node_modules against the lockfile.
  const lock = JSON.stringify({ lockfileVersion: 3, packages: { "": {}, "node_modules/left-pad": { version: "1.3.0" } } });
  writeFileSync(path.join(checkout, "package-lock.json"), lock);
  mkdirSync(path.join(checkout, "node_modules"));
  writeFileSync(path.join(checkout, "node_modules", ".package-lock.json"), lock);
});

afterEach(async () => {
  // SIGTERM first: the driver stops its stub server; a driver stuck elsewhere is killed outright.
  for (const child of running.splice(0)) {
    if (child.exitCode !== null) continue;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  }
});

afterAll(() => rmSync(checkout, { recursive: true, force: true }));

describe("npm start", () => {
  it("builds on the first start and prints each step; the second start on an unchanged checkout serves without building", async () => {
    const first = await start();
    const firstLines = await first.settled;
    expect(firstLines[0]).toBe("• installed packages match package-lock.json");
    expect(firstLines).toContain("• building the app: its sources changed since the last build (next build; 2–4 minutes on two cores)");
    expect(firstLines.some((line) => /^• built in \d+ s$/.test(line))).toBe(true);
    expect(firstLines.at(-1)).toMatch(/^• ready: http:\/\/127\.0\.0\.1:\d+ \(\d+\.\d s after npm start\)$/);
    expect(builds()).toBe(1);
    await stop(first);

    const second = await start();
    const secondLines = await second.settled;
    expect(secondLines, secondLines.join("\n")).toContain("• build is current (5 source files unchanged since the last build)");
    expect(secondLines.some((line) => line.includes("building"))).toBe(false);
    expect(secondLines.at(-1)).toMatch(/^• ready: /);
    expect(builds()).toBe(1);
    await stop(second);
  }, 60_000);

  it("does not rebuild for new modification times alone (a regenerated Prisma client), and does for changed bytes or a public variable", async () => {
    const regenerated = path.join(checkout, "generated", "prisma", "client.ts");
    cpSync(regenerated, `${regenerated}.copy`);
    rmSync(regenerated);
    cpSync(`${regenerated}.copy`, regenerated);
    rmSync(`${regenerated}.copy`);
    utimesSync(path.join(checkout, "app", "page.tsx"), new Date(), new Date(Date.now() + 5_000));
    const touched = await start();
    expect(await touched.settled).toContain("• build is current (5 source files unchanged since the last build)");
    await stop(touched);
    expect(builds()).toBe(1);

    writeFileSync(path.join(checkout, "lib", "answer.ts"), "export const answer = 43;\n");
    const changed = await start();
    expect((await changed.settled).at(-1)).toMatch(/^• ready: /);
    expect(builds()).toBe(2);
    await stop(changed);

    const renamed = await start({ NEXT_PUBLIC_APP_NAME: "Renamed Studio" });
    expect((await renamed.settled).at(-1)).toMatch(/^• ready: /);
    expect(builds()).toBe(3);
    await stop(renamed);
  }, 60_000);

  it("refuses to rebuild .next under a running server from the same checkout, and serves its build alongside it", async () => {
    const serving = await start({ NEXT_PUBLIC_APP_NAME: "Renamed Studio" });
    expect((await serving.settled).at(-1)).toMatch(/^• ready: /);
    const alongside = await start({ NEXT_PUBLIC_APP_NAME: "Renamed Studio" });
    expect((await alongside.settled).at(-1)).toMatch(/^• ready: /);
    await stop(alongside);

    writeFileSync(path.join(checkout, "lib", "answer.ts"), "export const answer = 44;\n");
    const refused = await start({ NEXT_PUBLIC_APP_NAME: "Renamed Studio" });
    const lines = await refused.settled;
    expect(refused.child.exitCode).toBe(1);
    expect(lines.at(-1)).toMatch(/^error: The sources changed since the last build, but a server from this checkout is running on that build \(process \d+ on port \d+\)/);
    expect(builds()).toBe(3);
    await stop(serving);
  }, 60_000);

  it("builds once when two starts that both need a build begin together: the second waits, then finds the build current", async () => {
    const [one, two] = await Promise.all([start({ NEXT_PUBLIC_APP_NAME: "Renamed Studio" }), start({ NEXT_PUBLIC_APP_NAME: "Renamed Studio" })]);
    const outputs = await Promise.all([one.settled, two.settled]);
    expect(builds()).toBe(4);
    for (const lines of outputs) expect(lines.at(-1)).toMatch(/^• ready: /);
    const waited = outputs.find((lines) => lines.some((line) => line.startsWith("• waiting for the build that process ")));
    expect(waited).toBeDefined();
    expect(waited).toContain("• build is current (5 source files unchanged since the last build)");
    await Promise.all([stop(one), stop(two)]);
  }, 60_000);
});
