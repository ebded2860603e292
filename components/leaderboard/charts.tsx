"use client";

// Recharts renderers for data prepared in lib/leaderboard/charts.ts; every chart has its data table beside it.
// Many series stay readable: a 16-colour palette per theme (lib/leaderboard/palette), hovering a legend entry or a
// line highlights that model and dims the rest, the tooltip lists values best first and compactly, and rates by
// round carry their 95% intervals as error bars.
import { useTheme } from "next-themes";
import { useState } from "react";
import { Bar, BarChart, CartesianGrid, ErrorBar, Legend, Line, LineChart, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis, ZAxis, LabelList } from "recharts";
import { intervalKey, labelledPoints, shortName, type ChartModel, type ChartPoint, type ScatterRow } from "@/lib/leaderboard/charts";
import { seriesColor, type ChartTheme } from "@/lib/leaderboard/palette";

/** Dash patterns so lines differ by more than colour once the palette repeats. */
const DASHES = ["", "6 3", "2 2", "8 3 2 3"];
const TOOLTIP_ROWS = 8;

const percentTick = (value: number) => `${Math.round(value * 100)}%`;
const percentValue = (value: unknown) => (typeof value === "number" ? `${(value * 100).toFixed(2)}%` : "—");

function useChartTheme(): { theme: ChartTheme; grid: string; axis: string } {
  const { resolvedTheme } = useTheme();
  const theme: ChartTheme = resolvedTheme === "dark" ? "dark" : "light";
  return { theme, grid: theme === "dark" ? "#334155" : "#cbd5e1", axis: theme === "dark" ? "#cbd5e1" : "#334155" };
}

interface TooltipEntry {
  name?: unknown;
  value?: unknown;
  color?: string;
  dataKey?: unknown;
}

/** Values best first, at most eight rows (the highlighted model always among them), never wider than the chart. */
function CompactTooltip({ active, payload, label, highlighted, intervals }: { active?: boolean; payload?: readonly TooltipEntry[]; label?: unknown; highlighted: string | null; intervals?: boolean }) {
  if (!active || !payload || payload.length === 0) return null;
  const entries = payload.filter((entry) => typeof entry.value === "number").sort((a, b) => (b.value as number) - (a.value as number));
  let shown = entries.slice(0, TOOLTIP_ROWS);
  const focus = entries.find((entry) => entry.dataKey === highlighted);
  if (focus && !shown.includes(focus)) shown = [...shown.slice(0, TOOLTIP_ROWS - 1), focus];
  return (
    <div className="max-w-64 rounded-md border border-slate-200 bg-white/95 px-2.5 py-1.5 text-xs shadow-lg dark:border-slate-700 dark:bg-slate-900/95" data-testid="chart-tooltip">
      {label !== undefined ? <p className="mb-1 font-medium">{String(label)}</p> : null}
      <ul className="space-y-0.5">
        {shown.map((entry) => {
          const point = (payload[0] as { payload?: ChartPoint } | undefined)?.payload;
          const ci = intervals && point ? (point[intervalKey(String(entry.dataKey))] as [number, number] | undefined) : undefined;
          return (
            <li key={String(entry.dataKey)} className={`flex items-center gap-1.5 ${entry.dataKey === highlighted ? "font-semibold" : ""}`}>
              <span aria-hidden="true" className="inline-block h-2 w-2 shrink-0 rounded-full" style={{ background: entry.color }} />
              <span className="min-w-0 flex-1 truncate">{String(entry.name)}</span>
              <span className="tabular-nums">{percentValue(entry.value)}</span>
              {ci ? <span className="tabular-nums text-slate-500">±{Math.round(Math.max(...ci) * 100)}</span> : null}
            </li>
          );
        })}
      </ul>
      {entries.length > shown.length ? <p className="mt-1 text-slate-500">and {entries.length - shown.length} more (see the table)</p> : null}
    </div>
  );
}

const legendKey = (entry: unknown): string | null => {
  const key = (entry as { dataKey?: unknown } | null)?.dataKey;
  return typeof key === "string" ? key : null;
};

export function DegradationChart({ points, models, title }: { points: ChartPoint[]; models: ChartModel[]; title: string }) {
  const { theme, grid, axis } = useChartTheme();
  const [highlighted, setHighlighted] = useState<string | null>(null);
  return (
    <div role="img" aria-label={`${title}: line chart, one line per model over rounds ${points.map((point) => point.round).join(", ")}, with 95% intervals; the table below has the figures.`}>
      <ResponsiveContainer width="100%" height={340}>
        <LineChart data={points} margin={{ top: 8, right: 16, bottom: 8, left: 0 }} onMouseLeave={() => setHighlighted(null)}>
          <CartesianGrid strokeDasharray="3 3" stroke={grid} />
          <XAxis dataKey="label" tick={{ fontSize: 12, fill: axis }} interval={0} padding={{ left: 40, right: 40 }} />
          <YAxis domain={[0, 1]} tickFormatter={percentTick} tick={{ fontSize: 12, fill: axis }} width={44} />
          <Tooltip content={<CompactTooltip highlighted={highlighted} intervals />} allowEscapeViewBox={{ x: false, y: false }} wrapperStyle={{ zIndex: 10 }} />
          <Legend
            wrapperStyle={{ fontSize: 12, cursor: "pointer" }}
            itemSorter={null}
            onMouseEnter={(entry) => setHighlighted(legendKey(entry))}
            onMouseLeave={() => setHighlighted(null)}
            onClick={(entry) => setHighlighted((current) => (current === legendKey(entry) ? null : legendKey(entry)))}
          />
          {models.map((model, index) => {
            const dimmed = highlighted !== null && highlighted !== model.key;
            const stroke = seriesColor(theme, index);
            return (
              <Line
                key={model.key}
                type="linear"
                dataKey={model.key}
                name={model.displayName}
                stroke={stroke}
                strokeOpacity={dimmed ? 0.15 : 1}
                strokeDasharray={DASHES[Math.floor(index / 16) % DASHES.length]}
                strokeWidth={highlighted === model.key ? 3.5 : 2}
                dot={{ r: 3, fillOpacity: dimmed ? 0.15 : 1, strokeOpacity: dimmed ? 0.15 : 1 }}
                activeDot={{ r: 5, onMouseEnter: () => setHighlighted(model.key) }}
                onMouseEnter={() => setHighlighted(model.key)}
                connectNulls={false}
                isAnimationActive={false}
              >
                {highlighted === model.key ? <ErrorBar dataKey={intervalKey(model.key)} width={6} strokeWidth={1.5} stroke={stroke} direction="y" /> : null}
              </Line>
            );
          })}
        </LineChart>
      </ResponsiveContainer>
      <p className="text-xs text-slate-500">Hover or click a name in the legend to pick out one model and see its 95% intervals (Wilson).</p>
    </div>
  );
}

/** Horizontal stacked bars: one bar per model, one segment per key (shares of its turns). */
export function StackedShareChart({ points, keys, labels, title }: { points: ChartPoint[]; keys: readonly string[]; labels?: Record<string, string>; title: string }) {
  const { theme, grid, axis } = useChartTheme();
  const height = Math.max(160, 28 * points.length + 60);
  return (
    <div role="img" aria-label={`${title}: stacked bar chart, one bar per model; the table below has the counts.`}>
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={points} layout="vertical" margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke={grid} horizontal={false} />
          <XAxis type="number" domain={[0, 1]} tickFormatter={percentTick} tick={{ fontSize: 12, fill: axis }} />
          <YAxis type="category" dataKey="model" width={176} tick={{ fontSize: 11, fill: axis }} interval={0} tickFormatter={(value: string) => shortName(value)} />
          <Tooltip formatter={percentValue} cursor={{ fillOpacity: 0.1 }} />
          <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
          {keys.map((key, index) => (
            <Bar key={key} dataKey={key} name={labels?.[key] ?? key} stackId="share" fill={seriesColor(theme, index)} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export function DomainBarsChart({ points, models, title }: { points: ChartPoint[]; models: ChartModel[]; title: string }) {
  const { theme, grid, axis } = useChartTheme();
  const [highlighted, setHighlighted] = useState<string | null>(null);
  return (
    <div role="img" aria-label={`${title}: grouped bar chart, one group per domain and one bar per model; the table below has the figures.`}>
      <ResponsiveContainer width="100%" height={340}>
        <BarChart data={points} margin={{ top: 8, right: 16, bottom: 8, left: 0 }} barCategoryGap="12%" barGap={1} onMouseLeave={() => setHighlighted(null)}>
          <CartesianGrid strokeDasharray="3 3" stroke={grid} vertical={false} />
          <XAxis dataKey="domain" tick={{ fontSize: 12, fill: axis }} />
          <YAxis domain={[0, 1]} tickFormatter={percentTick} tick={{ fontSize: 12, fill: axis }} width={44} />
          <Tooltip content={<CompactTooltip highlighted={highlighted} />} cursor={{ fillOpacity: 0.1 }} />
          <Legend
            wrapperStyle={{ fontSize: 12, cursor: "pointer" }}
            itemSorter={null}
            onMouseEnter={(entry) => setHighlighted(legendKey(entry))}
            onMouseLeave={() => setHighlighted(null)}
          />
          {models.map((model, index) => (
            <Bar
              key={model.key}
              dataKey={model.key}
              name={model.displayName}
              fill={seriesColor(theme, index)}
              fillOpacity={highlighted !== null && highlighted !== model.key ? 0.2 : 1}
              onMouseEnter={() => setHighlighted(model.key)}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

function ScatterTooltip({ active, payload }: { active?: boolean; payload?: readonly { payload?: { name: string; x: number; y: number } }[] }) {
  const point = active ? payload?.[0]?.payload : undefined;
  if (!point) return null;
  return (
    <div className="rounded-md border border-slate-200 bg-white/95 px-2.5 py-1.5 text-xs shadow-lg dark:border-slate-700 dark:bg-slate-900/95">
      <p className="font-medium">{point.name}</p>
      <p className="tabular-nums">
        pass {percentValue(point.x)} · resolve {percentValue(point.y)}
      </p>
    </div>
  );
}

export function PassResolveScatter({ rows, title }: { rows: ScatterRow[]; title: string }) {
  const { theme, grid, axis } = useChartTheme();
  const data = rows.map((row) => ({ x: row.passRate, y: row.resolveRate, name: row.displayName }));
  const named = labelledPoints(data);
  const labelled = data.map((point) => ({ ...point, label: named.has(point.name) ? point.name : "" }));
  return (
    <div role="img" aria-label={`${title}: scatter plot of ${rows.length} models, pass rate across, resolve rate up; the table below has the figures.`}>
      <ResponsiveContainer width="100%" height={380}>
        <ScatterChart margin={{ top: 16, right: 24, bottom: 16, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke={grid} />
          <XAxis type="number" dataKey="x" name="Pass rate" domain={[0, 1]} tickFormatter={percentTick} tick={{ fontSize: 12, fill: axis }} label={{ value: "Pass rate", position: "insideBottom", offset: -8, fontSize: 12, fill: axis }} />
          <YAxis type="number" dataKey="y" name="Resolve rate" domain={[0, 1]} tickFormatter={percentTick} tick={{ fontSize: 12, fill: axis }} width={44} label={{ value: "Resolve", angle: -90, position: "insideLeft", fontSize: 12, fill: axis }} />
          <ZAxis range={[60, 60]} />
          <Tooltip content={<ScatterTooltip />} />
          <Scatter data={labelled} name="Models" fill={seriesColor(theme, 0)} isAnimationActive={false}>
            <LabelList dataKey="label" position="right" style={{ fontSize: 11, fill: axis }} />
          </Scatter>
        </ScatterChart>
      </ResponsiveContainer>
      <p className="text-xs text-slate-500">Names that would overlap are left off the plot; hover a point or see the table.</p>
    </div>
  );
}
