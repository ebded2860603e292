import { describe, expect, it } from "vitest";
import { formatBytes, formatDateTime, formatPercent, formatRatio, formatUsd } from "./format";

describe("formatting", () => {
  it("prints rates as percentages with two decimals and a dash when unknown", () => {
    expect(formatPercent(0.6962)).toBe("69.62%");
    expect(formatRatio(55, 79)).toBe("69.62%");
    expect(formatRatio(1, 0)).toBe("—");
    expect(formatPercent(null)).toBe("—");
  });

  it("prints dollars in cents, with five decimals under a cent", () => {
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatUsd(0.0021)).toBe("$0.00210");
    expect(formatUsd(12.345)).toBe("$12.35");
  });

  it("prints sizes and UTC times", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(2.5 * 1024 * 1024)).toBe("2.5 MB");
    expect(formatDateTime("2026-11-22T07:15:34.834Z")).toBe("2026-11-22 07:15 UTC");
  });
});
