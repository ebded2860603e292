// The paper's Table 1 as the leaderboard shows and exports it, cell by cell against the reference CSV of the printed
// figures (next to the benchmark, reference/paper-table1.csv). Skipped, with a message, when the CSV is absent.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { benchmarkDir } from "../../test/support/benchmark-dir";
import { formatPercent } from "../format";
import { AVERAGE, buildBoard, publishedRateRows, type PublishedFigure } from "../leaderboard/board";
import { describeMetric } from "../leaderboard/describe";
import { leaderboardExportRows, PUBLISHED_LEADERBOARD_COLUMNS, render } from "../leaderboard/export";
import { decodeBoard, encodeBoard } from "../leaderboard/wire";
import { publishedCells } from "./table1";

const csvFile = [
  benchmarkDir ? path.join(benchmarkDir, "..", "reference", "paper-table1.csv") : null,
  path.resolve(__dirname, "../../../shared/reference/paper-table1.csv"),
].find((file): file is string => file !== null && existsSync(file));

interface PrintedCell {
  model: string;
  domain: string;
  pass: string;
  resolve: string;
}

function printedCells(file: string): PrintedCell[] {
  const [header, ...lines] = readFileSync(file, "utf8").trim().split(/\r?\n/);
  expect(header).toBe("model,run_file,access,domain,pass_rate_pct,resolve_rate_pct");
  return lines.map((line) => {
    const [, model, , domain, pass, resolve] = line.split(",");
    // The CSV drops trailing zeros ("12.5"); the paper prints two decimals.
    return { model: model!, domain: domain!, pass: Number(pass).toFixed(2), resolve: Number(resolve).toFixed(2) };
  });
}

const figures: PublishedFigure[] = publishedCells();

describe.skipIf(!csvFile)(`published Table 1 as printed${csvFile ? "" : " (skipped: reference/paper-table1.csv not found next to the benchmark)"}`, () => {
  const cells = csvFile ? printedCells(csvFile) : [];

  it("has all 105 cells (15 models × 6 domains and the average)", () => {
    expect(cells).toHaveLength(105);
    expect(figures).toHaveLength(105);
  });

  it("shows every cell on the leaderboard exactly as printed, pass and resolve, tooltip included", () => {
    // As the page receives it: encoded for the client and decoded there.
    const board = decodeBoard(encodeBoard(buildBoard(null, figures)));
    const shown = cells.map((cell) => {
      const pair = board.rows.find((row) => row.name === cell.model)?.cells[cell.domain];
      return {
        model: cell.model,
        domain: cell.domain,
        pass: formatPercent(pair?.pass.published?.rate),
        resolve: formatPercent(pair?.resolve.published?.rate),
        tooltip: pair?.pass.published ? describeMetric(pair.pass.published, "pass", "published").split(" — ")[0] : null,
      };
    });
    expect(shown).toEqual(cells.map((cell) => ({ model: cell.model, domain: cell.domain, pass: `${cell.pass}%`, resolve: `${cell.resolve}%`, tooltip: `${cell.pass}%` })));
  });

  it("exports every cell's printed percentages next to the counts derived from them", () => {
    const rows = leaderboardExportRows(publishedRateRows(figures));
    expect(rows).toHaveLength(105);
    const exported = cells.map((cell) => {
      const row = rows.find((entry) => entry.model === cell.model && entry.key === (cell.domain === AVERAGE ? "all" : cell.domain));
      return { model: cell.model, domain: cell.domain, pass: row?.passPercent?.toFixed(2), resolve: row?.resolvePercent?.toFixed(2) };
    });
    expect(exported).toEqual(cells.map(({ model, domain, pass, resolve }) => ({ model, domain, pass, resolve })));
    // Claude-Sonnet-4.5 AIGC: printed 62.97, while its derived count (34 of 54 over three runs) divides to 62.96.
    const csv = render(PUBLISHED_LEADERBOARD_COLUMNS, rows, "csv");
    expect(csv).toContain("claude_sonnet4d5,domain,AIGC,11.3333,18,22.6667,54,62.97,41.97\r\n");
  });
});
