"use client";

// Recharts renderers for data prepared in lib/leaderboard/charts.ts; every chart has its data table beside it.
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis, ZAxis, LabelList } from "recharts";
import type { ChartModel, ChartPoint, ScatterRow } from "@/lib/leaderboard/charts";

/** Colour-blind-safe first (Okabe–Ito), then more distinct hues for long model lists. */
export const SERIES_COLORS = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000", "#8C564B", "#7F7F7F", "#17BECF", "#BCBD22"];
/** Dash patterns so lines differ by more than colour. */
const DASHES = ["", "6 3", "2 2", "8 3 2 3", "1 3", "10 4"];
const color = (index: number) => SERIES_COLORS[index % SERIES_COLORS.length]!;

const percentTick = (value: number) => `${Math.round(value * 100)}%`;
const percentValue = (value: unknown) => (typeof value === "number" ? `${(value * 100).toFixed(2)}%` : "—");

export function DegradationChart({ points, models, title }: { points: ChartPoint[]; models: ChartModel[]; title: string }) {
  return (
    <div role="img" aria-label={`${title}: line chart, one line per model over rounds ${points.map((point) => point.round).join(", ")}; the table below has the figures.`}>
      <ResponsiveContainer width="100%" height={320}>
        <LineChart data={points} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#cbd5e1" />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} interval={0} padding={{ left: 40, right: 40 }} />
          <YAxis domain={[0, 1]} tickFormatter={percentTick} tick={{ fontSize: 12 }} width={44} />
          <Tooltip formatter={percentValue} />
          <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
          {models.map((model, index) => (
            <Line
              key={model.key}
              type="linear"
              dataKey={model.key}
              name={model.displayName}
              stroke={color(index)}
              strokeDasharray={DASHES[Math.floor(index / SERIES_COLORS.length) % DASHES.length] || DASHES[index % DASHES.length]}
              strokeWidth={2}
              dot={{ r: 3 }}
              connectNulls={false}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Horizontal stacked bars: one bar per model, one segment per key (shares of its turns). */
export function StackedShareChart({ points, keys, labels, title }: { points: ChartPoint[]; keys: readonly string[]; labels?: Record<string, string>; title: string }) {
  const height = Math.max(160, 28 * points.length + 60);
  return (
    <div role="img" aria-label={`${title}: stacked bar chart, one bar per model; the table below has the counts.`}>
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={points} layout="vertical" margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#cbd5e1" horizontal={false} />
          <XAxis type="number" domain={[0, 1]} tickFormatter={percentTick} tick={{ fontSize: 12 }} />
          <YAxis type="category" dataKey="model" width={170} tick={{ fontSize: 11 }} interval={0} />
          <Tooltip formatter={percentValue} />
          <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
          {keys.map((key, index) => (
            <Bar key={key} dataKey={key} name={labels?.[key] ?? key} stackId="share" fill={color(index)} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export function DomainBarsChart({ points, models, title }: { points: ChartPoint[]; models: ChartModel[]; title: string }) {
  return (
    <div role="img" aria-label={`${title}: grouped bar chart, one group per domain and one bar per model; the table below has the figures.`}>
      <ResponsiveContainer width="100%" height={340}>
        <BarChart data={points} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#cbd5e1" vertical={false} />
          <XAxis dataKey="domain" tick={{ fontSize: 12 }} />
          <YAxis domain={[0, 1]} tickFormatter={percentTick} tick={{ fontSize: 12 }} width={44} />
          <Tooltip formatter={percentValue} />
          <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
          {models.map((model, index) => (
            <Bar key={model.key} dataKey={model.key} name={model.displayName} fill={color(index)} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export function PassResolveScatter({ rows, title }: { rows: ScatterRow[]; title: string }) {
  const data = rows.map((row) => ({ x: row.passRate, y: row.resolveRate, name: row.displayName }));
  return (
    <div role="img" aria-label={`${title}: scatter plot of ${rows.length} models, pass rate across, resolve rate up; the table below has the figures.`}>
      <ResponsiveContainer width="100%" height={360}>
        <ScatterChart margin={{ top: 16, right: 24, bottom: 16, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#cbd5e1" />
          <XAxis type="number" dataKey="x" name="Pass rate" domain={[0, 1]} tickFormatter={percentTick} tick={{ fontSize: 12 }} label={{ value: "Pass rate", position: "insideBottom", offset: -8, fontSize: 12 }} />
          <YAxis type="number" dataKey="y" name="Resolve rate" domain={[0, 1]} tickFormatter={percentTick} tick={{ fontSize: 12 }} width={44} label={{ value: "Resolve", angle: -90, position: "insideLeft", fontSize: 12 }} />
          <ZAxis range={[60, 60]} />
          <Tooltip formatter={percentValue} />
          <Scatter data={data} fill={SERIES_COLORS[0]} isAnimationActive={false}>
            {rows.length <= 20 ? <LabelList dataKey="name" position="right" style={{ fontSize: 10 }} /> : null}
          </Scatter>
        </ScatterChart>
      </ResponsiveContainer>
    </div>
  );
}
