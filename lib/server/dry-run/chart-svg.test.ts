// Chart previews: the chart a tool's text describes, drawn by ECharts as SVG, with model text escaped and bounded.
import { describe, expect, it } from "vitest";
import { chartSvg, MAX_POINTS } from "./chart-svg";

describe("chart previews", () => {
  it("draws a bar chart whose title, escaped, and axis labels are in the SVG", () => {
    const preview = chartSvg({ chart: "bar", title: "Sales <script>alert(1)</script> & co", labels: ["Q1", "Q2", "<b>Q3</b>"], values: [1, 2, 3] });
    expect(preview?.svg.startsWith("<svg")).toBe(true);
    expect(preview?.svg).toContain("Sales &lt;script&gt;alert(1)&lt;/script&gt; &amp; co");
    expect(preview?.svg).not.toContain("<script");
    expect(preview?.svg).toContain("&lt;b&gt;Q3&lt;/b&gt;");
    expect(preview?.alt).toBe('Bar chart "Sales <script>alert(1)</script> & co" of 3 values (Q1: 1, Q2: 2, <b>Q3</b>: 3)');
  });

  it("draws a pie chart with its category names", () => {
    const preview = chartSvg({ chart: "pie", title: "Share", labels: ["Apples", "Pears"], values: [3, 1] });
    expect(preview?.svg).toContain("Apples");
    expect(preview?.svg).toContain("Pears");
    expect(preview?.alt).toMatch(/^Pie chart "Share" of 2 values/);
  });

  it("draws at most MAX_POINTS values of a huge series, and says how many there were", () => {
    const values = Array.from({ length: 100_000 }, (_, index) => index);
    const title = "t".repeat(1_000_000);
    const preview = chartSvg({ chart: "line", title, labels: values.map((value) => `label ${value}`), values });
    const firstPoints = chartSvg({ chart: "line", title, labels: values.slice(0, MAX_POINTS).map((value) => `label ${value}`), values: values.slice(0, MAX_POINTS) });
    expect(preview?.svg.length).toBeLessThan(150_000);
    // Each chart instance numbers its CSS classes and clip paths (zr<n>-…); the drawing is otherwise the same.
    const drawing = (svg: string | undefined) => svg?.replace(/zr\d+-[\w-]+/g, "zr");
    expect(drawing(preview?.svg)).toBe(drawing(firstPoints?.svg));
    expect(preview?.alt).toContain("of 100000 values");
    expect(preview?.alt).toContain("and 99995 more");
  });
});
