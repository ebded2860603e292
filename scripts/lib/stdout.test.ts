// The runner of the piped CLIs, in a child process: all of a large output reaches a slow reader, main()'s status is the
// exit status, a closed pipe ends the command quietly, and nothing left in the event loop holds the process open.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const tsx = path.resolve(here, "../../node_modules/tsx/dist/cli.mjs");
const dir = mkdtempSync(path.join(os.tmpdir(), "c2w-stdout-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A command whose main() runs `body` (with `printData` in scope) and returns what it returns. */
function command(name: string, body: string): string {
  const file = path.join(dir, `${name}.ts`);
  writeFileSync(file, `import { printData, runPipedCommandLine } from ${JSON.stringify(path.join(here, "stdout.ts"))};\nrunPipedCommandLine(async () => {\n${body}\n});\n`);
  return file;
}

interface Finished {
  code: number | null;
  stdoutBytes: number;
  stderr: string;
}

/** Runs `file`; the reader waits `readAfterMs` before it reads stdout, or closes it after `closeAfterBytes`. */
function run(file: string, { readAfterMs = 0, closeAfterBytes }: { readAfterMs?: number; closeAfterBytes?: number } = {}): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsx, file], { stdio: ["ignore", "pipe", "pipe"] });
    let stdoutBytes = 0;
    let stderr = "";
    child.stdout.pause();
    setTimeout(() => child.stdout.resume(), readAfterMs);
    child.stdout.on("data", (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (closeAfterBytes !== undefined && stdoutBytes >= closeAfterBytes) child.stdout.destroy();
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdoutBytes, stderr }));
  });
}

describe("runPipedCommandLine", () => {
  it("delivers every byte to a reader that starts late, then exits with main()'s status", async () => {
    const file = command("large", "await printData('x'.repeat(4 * 1024 * 1024 - 1));\nprocess.stdout.write('tail that is not awaited\\n');\nreturn 3;");
    const finished = await run(file, { readAfterMs: 300 });
    expect(finished.code).toBe(3);
    expect(finished.stdoutBytes).toBe(4 * 1024 * 1024 + "tail that is not awaited\n".length);
  });

  it("exits once main() is done, whatever still waits in the event loop", async () => {
    const file = command("lingering", "setInterval(() => {}, 1000);\nprocess.stdout.write('done\\n');\nreturn 0;");
    const finished = await run(file);
    expect(finished).toEqual({ code: 0, stdoutBytes: "done\n".length, stderr: "" });
  });

  it("prints what main() threw and exits with 1", async () => {
    const file = command("throws", "throw new Error('the benchmark folder vanished');");
    const finished = await run(file);
    expect(finished.code).toBe(1);
    expect(finished.stderr).toContain("the benchmark folder vanished");
  });

  it("ends quietly with 0 when the reader closes the pipe", async () => {
    const file = command("closed", "for (let i = 0; i < 64; i++) await printData('y'.repeat(64 * 1024));\nreturn 5;");
    const finished = await run(file, { closeAfterBytes: 1 });
    expect(finished.code).toBe(0);
    expect(finished.stderr).toBe("");
  });
});
