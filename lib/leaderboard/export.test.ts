import { describe, expect, it } from "vitest";
import type { RateRow } from "../stats/rates";
import { exportFileName, leaderboardColumns, leaderboardExportRows, LEADERBOARD_COLUMNS, render, toCsv, type Column } from "./export";

const rows: RateRow[] = [
  { model: "m", scope: "overall", key: "all", passNum: 5, passDen: 8, resolveNum: 9, resolveDen: 24 },
  { model: "m", scope: "domain", key: "AIGC", passNum: 5, passDen: 8, resolveNum: 9, resolveDen: 24 },
  { model: "m", scope: "round", key: "1", passNum: 3, passDen: 4, resolveNum: 6, resolveDen: 12 },
  { model: "m", scope: "round", key: "4", passNum: 2, passDen: 4, resolveNum: 3, resolveDen: 12 },
  { model: "raw", scope: "overall", key: "all", passNum: 1, passDen: 2, resolveNum: null, resolveDen: null },
];

describe("leaderboard export", () => {
  it("prints what the official statistics print by default (rounds 1–3), every round on request", () => {
    expect(leaderboardExportRows(rows).map((row) => `${row.scope}:${row.key}`)).toEqual(["overall:all", "domain:AIGC", "round:1", "overall:all"]);
    expect(leaderboardExportRows(rows, { allRounds: true })).toHaveLength(5);
  });

  it("renders JSON rows with exactly the documented keys, and null resolve for runs without resolve data", () => {
    const json = JSON.parse(render(LEADERBOARD_COLUMNS, leaderboardExportRows(rows), "json")) as Record<string, unknown>[];
    expect(Object.keys(json[0]!)).toEqual(["model", "scope", "key", "passNum", "passDen", "resolveNum", "resolveDen"]);
    expect(json[3]).toEqual({ model: "raw", scope: "overall", key: "all", passNum: 1, passDen: 2, resolveNum: null, resolveDen: null });
  });

  it("ends measured rows with the predicted execution, filled only where a row carries one", () => {
    const predicted = { reached: 15, executions: 18, turns: 6, runs: 2, partialRuns: 1, partialTurns: 2, partialPassingTurns: 5, endpointTurns: 0 };
    const measured = leaderboardExportRows([{ ...rows[0]!, configuration: "official recorded run", judge: "recorded verdicts", predicted }, { ...rows[1]!, configuration: "official recorded run", judge: "recorded verdicts" }]);
    const json = JSON.parse(render(leaderboardColumns("measured"), measured, "json")) as Record<string, unknown>[];
    expect(Object.keys(json[0]!).slice(-6)).toEqual(["predictedExecutionNum", "predictedExecutionDen", "predictedExecutionTurns", "predictedExecutionRuns", "predictedExecutionPartialRuns", "predictedExecutionBy"]);
    expect(json[0]).toMatchObject({ predictedExecutionNum: 15, predictedExecutionDen: 18, predictedExecutionTurns: 6, predictedExecutionRuns: 2, predictedExecutionPartialRuns: 1, predictedExecutionBy: "dry run, mock model — a prediction of Dify's execution, not a resolve rate" });
    expect(json[1]).toMatchObject({ predictedExecutionNum: null, predictedExecutionDen: null, predictedExecutionBy: null });
    expect(Object.keys(JSON.parse(render(leaderboardColumns("published"), leaderboardExportRows(rows), "json"))[0] as object)).not.toContain("predictedExecutionNum");
  });

  it("renders CSV with a header, CRLF lines and empty cells for missing values", () => {
    const csv = render(LEADERBOARD_COLUMNS, leaderboardExportRows(rows), "csv");
    expect(csv.split("\r\n")).toEqual([
      "model,scope,key,passNum,passDen,resolveNum,resolveDen",
      "m,overall,all,5,8,9,24",
      "m,domain,AIGC,5,8,9,24",
      "m,round,1,3,4,6,12",
      "raw,overall,all,1,2,,",
      "",
    ]);
  });
});

describe("CSV cells", () => {
  const columns: Column<{ text: string | null; value: number }>[] = [
    { key: "text", value: (row) => row.text },
    { key: "value", value: (row) => row.value },
  ];

  it("quotes separators, quotes and line breaks", () => {
    expect(toCsv(columns, [{ text: 'a,"b"\nc', value: 1 }])).toBe('text,value\r\n"a,""b""\nc",1\r\n');
  });

  it("keeps formula-like text inert but leaves negative numbers alone", () => {
    expect(toCsv(columns, [{ text: "=HYPERLINK(1)", value: -0.5 }])).toBe("text,value\r\n'=HYPERLINK(1),-0.5\r\n");
    expect(toCsv(columns, [{ text: "-1", value: 2 }])).toBe("text,value\r\n'-1,2\r\n");
  });

  it("names files with safe characters only", () => {
    expect(exportFileName(["leaderboard", "measured", "Chat2Workflow demo"], "csv")).toBe("leaderboard-measured-Chat2Workflow-demo.csv");
    expect(exportFileName(["../../etc", "", "a/b"], "json")).toBe("etc-a-b.json");
  });
});
