import { describe, expect, it } from "vitest";
import { benchmarkParam, chooseBenchmark, type BenchmarkChoice } from "./benchmarks";

const choice = (id: string, name: string, runCount: number, importedAt: string): BenchmarkChoice => ({ id, name, version: "v", runCount, turnCount: 10, importedAt });
const demo = choice("d", "Chat2Workflow demo", 4, "2026-01-01T00:00:00.000Z");
const real = choice("r", "chat2workflow", 12, "2026-01-02T00:00:00.000Z");
const realAgain = choice("r2", "chat2workflow", 1, "2026-01-03T00:00:00.000Z");

describe("choosing the benchmark", () => {
  it("defaults to the one with the most runs, then the most recent import", () => {
    expect(chooseBenchmark([demo, real], null)?.id).toBe("r");
    expect(chooseBenchmark([demo], "")?.id).toBe("d");
    expect(chooseBenchmark([choice("a", "A", 2, "2026-01-01"), choice("b", "B", 2, "2026-02-01")], null)?.id).toBe("b");
    expect(chooseBenchmark([], null)).toBeNull();
  });

  it("takes an id or a name (case-insensitively), and the default for an unknown one", () => {
    expect(chooseBenchmark([demo, real], "d")?.id).toBe("d");
    expect(chooseBenchmark([demo, real], "chat2workflow demo")?.id).toBe("d");
    expect(chooseBenchmark([demo, real, realAgain], "chat2workflow")?.id).toBe("r");
    expect(chooseBenchmark([demo, real], "nope")?.id).toBe("r");
  });

  it("writes the name in URLs unless another import shares it", () => {
    expect(benchmarkParam(demo, [demo, real])).toBe("Chat2Workflow demo");
    expect(benchmarkParam(realAgain, [demo, real, realAgain])).toBe("r2");
  });
});
