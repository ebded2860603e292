"use client";

// Per-criterion distribution of normalised values: one horizontal bar per criterion, stacked by 0.2-wide bins of
// responses. Prepared data only; the report shows the same counts in a table beside it.
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface CriterionChartRow {
  criterion: string;
  [bin: string]: number | string;
}

const BIN_COLORS = ["#d9534f", "#f0883e", "#d4a72c", "#3fb68b", "#2f81f7"] as const;

export function CriterionDistributionChart({ rows, bins }: { rows: CriterionChartRow[]; bins: readonly string[] }) {
  const height = Math.max(160, 34 * rows.length + 70);
  // Low bins in warm colours, high bins in cool ones, so the bar reads left to right from bad to good; mid-tone hues
  // that stay visible on both the light and the dark background.
  const palette = BIN_COLORS;
  return (
    <div role="img" aria-label="Per-criterion distribution: stacked bar chart, one bar per criterion, segments count responses per normalised-value bin; the table below has the counts.">
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={rows} layout="vertical" margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#cbd5e1" horizontal={false} />
          <XAxis type="number" allowDecimals={false} tick={{ fontSize: 12 }} />
          <YAxis type="category" dataKey="criterion" width={170} tick={{ fontSize: 11 }} interval={0} />
          <Tooltip />
          <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
          {bins.map((bin, index) => (
            <Bar key={bin} dataKey={bin} name={`norm ${bin}`} stackId="bins" fill={palette[index % palette.length]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
