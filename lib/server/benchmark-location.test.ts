// The one benchmark setting: an explicit directory, else C2W_BENCHMARK_DIR, else ../shared/chat2workflow under the
// project; when it is not there, one sentence says what to do.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { configuredBenchmarkDir, locateBenchmarkDir } from "./benchmark-location";

const scratch = mkdtempSync(path.join(os.tmpdir(), "c2w-location-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const project = path.join(scratch, "checkout");
const fallback = path.join(scratch, "shared", "chat2workflow");
mkdirSync(project, { recursive: true });

describe("locateBenchmarkDir", () => {
  it("prefers an explicit directory, then C2W_BENCHMARK_DIR, then ../shared/chat2workflow next to the project", () => {
    expect(configuredBenchmarkDir({ projectDir: project, env: {} })).toBe(fallback);
    expect(configuredBenchmarkDir({ projectDir: project, env: { C2W_BENCHMARK_DIR: "/data/c2w" } })).toBe("/data/c2w");
    expect(configuredBenchmarkDir({ projectDir: project, env: { C2W_BENCHMARK_DIR: "/data/c2w" }, explicit: "bench" })).toBe(path.join(project, "bench"));
    expect(configuredBenchmarkDir({ projectDir: project, env: { C2W_BENCHMARK_DIR: " " } })).toBe(fallback);
  });

  it("says in one sentence to clone the official repository or set the variable when the directory lacks the dataset", () => {
    const missing = locateBenchmarkDir({ projectDir: project, env: {} });
    expect(missing).toEqual({
      ok: false,
      dir: fallback,
      message: `No Chat2Workflow benchmark at ${fallback} (it needs dataset/query.json): clone https://github.com/zjunlp/Chat2Workflow there, or set C2W_BENCHMARK_DIR to a copy.`,
    });
    mkdirSync(path.join(fallback, "dataset"), { recursive: true });
    writeFileSync(path.join(fallback, "dataset", "query.json"), "[]");
    expect(locateBenchmarkDir({ projectDir: project, env: {} })).toEqual({ ok: true, dir: fallback });
  });
});
