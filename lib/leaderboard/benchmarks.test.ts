import { describe, expect, it } from "vitest";
import { benchmarkHref, benchmarkParam, chooseBenchmark, defaultBenchmark, type BenchmarkChoice } from "./benchmarks";

const choice = (id: string, name: string, runCount: number, importedAt: string, demo = false): BenchmarkChoice => ({ id, name, version: "v", runCount, turnCount: 10, importedAt, demo });
const demo = choice("d", "Chat2Workflow demo", 4, "2026-01-01T00:00:00.000Z", true);
const real = choice("r", "chat2workflow", 12, "2026-01-02T00:00:00.000Z");
const realAgain = choice("r2", "chat2workflow", 1, "2026-01-03T00:00:00.000Z");
const other = choice("o", "other", 0, "2026-01-04T00:00:00.000Z");

describe("choosing the benchmark", () => {
  it("defaults to the first real benchmark imported, whatever the run counts", () => {
    expect(chooseBenchmark([demo, real], null)?.id).toBe("r");
    // Importing many runs into the demo (or another benchmark) does not move the default.
    expect(chooseBenchmark([{ ...demo, runCount: 500 }, real, { ...other, runCount: 99 }], null)?.id).toBe("r");
    expect(chooseBenchmark([demo], "")?.id).toBe("d");
    expect(chooseBenchmark([], null)).toBeNull();
  });

  it("follows the admin's setting while it names an existing benchmark", () => {
    expect(defaultBenchmark([demo, real, other], "o")?.id).toBe("o");
    expect(chooseBenchmark([demo, real, other], null, "d")?.id).toBe("d");
    expect(defaultBenchmark([demo, real], "deleted")?.id).toBe("r");
  });

  it("takes an id or a name (case-insensitively), and the default for an unknown one", () => {
    expect(chooseBenchmark([demo, real], "d")?.id).toBe("d");
    expect(chooseBenchmark([demo, real], "chat2workflow demo")?.id).toBe("d");
    expect(chooseBenchmark([demo, realAgain, real], "chat2workflow")?.id).toBe("r");
    expect(chooseBenchmark([demo, real], "nope")?.id).toBe("r");
  });

  it("writes the name in URLs unless another import shares it", () => {
    expect(benchmarkParam(demo, [demo, real])).toBe("Chat2Workflow demo");
    expect(benchmarkParam(realAgain, [demo, real, realAgain])).toBe("r2");
  });

  it("builds links that carry the benchmark first and drop empty extras", () => {
    expect(benchmarkHref("/compare", "chat2workflow", { a: "gpt_5d2", b: "", c: null })).toBe("/compare?benchmark=chat2workflow&a=gpt_5d2");
    expect(benchmarkHref("/charts", "")).toBe("/charts");
    expect(benchmarkHref("/models/x", "Chat2Workflow demo", { round: 2 })).toBe("/models/x?benchmark=Chat2Workflow+demo&round=2");
  });
});
