import { describe, expect, it } from "vitest";
import { measuredMetric, publishedMetric } from "./board";
import { describeMetric, formatDelta, formatRank } from "./describe";

describe("describing figures", () => {
  it("prints differences in signed percentage points", () => {
    expect(formatDelta(0.0125)).toBe("+1.25 pp");
    expect(formatDelta(-0.0042)).toBe("−0.42 pp");
    expect(formatDelta(0.00001)).toBe("±0.00 pp");
    expect(formatDelta(null)).toBe("—");
  });

  it("gives the count, the Wilson interval and the run spread", () => {
    const measured = measuredMetric(55, 79, 1, null)!;
    expect(describeMetric(measured, "pass", "measured")).toBe("69.62% — 55 of 79 turns passed; 95% Wilson interval 58.8–78.7%");
    const pooled = measuredMetric(10, 20, 2, { n: 2, min: 0.4, max: 0.6, mean: 0.5, sd: 0.1414 })!;
    expect(describeMetric(pooled, "resolve", "measured")).toContain("10 of 20 test cases resolved over 2 runs");
    expect(describeMetric(pooled, "resolve", "measured")).toContain("2 runs range 40.0–60.0%, sd 14.1 pp");
    expect(describeMetric(publishedMetric(67.51, 79, 1), "pass", "published")).toContain("53.33 of 79 turns passed per run on average (160 of 237 over 3 runs, counts derived from the printed rate)");
  });

  it("marks shared ranks", () => {
    expect(formatRank({ rank: 3, tied: true, upperBound: 1 })).toBe("3=");
    expect(formatRank({ rank: 1, tied: false, upperBound: 1 })).toBe("1");
    expect(formatRank({ rank: null, tied: false, upperBound: null })).toBe("—");
  });
});
