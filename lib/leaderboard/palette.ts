// Series colours for charts with many models: 16 hues, one set per theme, each clearly visible on its theme's
// background (contrast ≥ 3:1, so no black line vanishes in dark mode) and different from the others. Pure.

export type ChartTheme = "light" | "dark";

const LIGHT = ["#1f5fbf", "#d45500", "#128a4a", "#c2185b", "#6a3fb5", "#00838f", "#9e6a00", "#5d4037", "#b71c1c", "#558b2f", "#e91e63", "#455a64", "#1a237e", "#6d7a00", "#00695c", "#7b1fa2"];
const DARK = ["#6aa8ff", "#ff9a4d", "#4fd18b", "#ff6fa8", "#b69cff", "#3fd0dc", "#f2c94c", "#d7a98c", "#ff7b7b", "#a5d66f", "#f48fd1", "#b0bec5", "#eeeeee", "#dce775", "#4db6ac", "#e1a8ff"];

export const CHART_BACKGROUNDS: Readonly<Record<ChartTheme, string>> = { light: "#ffffff", dark: "#0f172a" };

export function seriesColors(theme: ChartTheme): readonly string[] {
  return theme === "dark" ? DARK : LIGHT;
}

/** Colour of series `index`; past 16 the hues repeat (the charts then also vary the dash pattern). */
export function seriesColor(theme: ChartTheme, index: number): string {
  const colors = seriesColors(theme);
  return colors[index % colors.length]!;
}

function luminance(hex: string): number {
  const channel = (offset: number) => {
    const value = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG contrast ratio of two #rrggbb colours. */
export function contrastRatio(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}
