import { describe, expect, it } from "vitest";
import { CHART_BACKGROUNDS, contrastRatio, seriesColor, seriesColors } from "./palette";

function distance(a: string, b: string): number {
  const rgb = (hex: string) => [1, 3, 5].map((offset) => Number.parseInt(hex.slice(offset, offset + 2), 16));
  const [x, y] = [rgb(a), rgb(b)];
  return Math.hypot(x[0]! - y[0]!, x[1]! - y[1]!, x[2]! - y[2]!);
}

describe("chart series colours", () => {
  for (const theme of ["light", "dark"] as const) {
    it(`gives 16 distinct colours, all visible on the ${theme} background`, () => {
      const colors = seriesColors(theme);
      expect(colors).toHaveLength(16);
      expect(new Set(colors).size).toBe(16);
      for (const color of colors) expect(contrastRatio(color, CHART_BACKGROUNDS[theme]), color).toBeGreaterThanOrEqual(3);
      for (let i = 0; i < colors.length; i++) for (let j = i + 1; j < colors.length; j++) expect(distance(colors[i]!, colors[j]!), `${colors[i]} vs ${colors[j]}`).toBeGreaterThan(40);
    });
  }

  it("computes WCAG contrast", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(seriesColor("dark", 16)).toBe(seriesColor("dark", 0));
  });
});
