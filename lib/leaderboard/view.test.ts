import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PUBLISHED_TABLE1 } from "../published/table1";
import { AVERAGE, buildBoard, type PublishedFigure } from "./board";
import { ACCESS_FILTERS, DEFAULT_STATE, SORT_VALUES, VIEW_SOURCES, applyView, ariaSort, boardQuery, decodeSegment, parseBoardState, serializeBoardState, toggleSort, type BoardState } from "./view";

const figures: PublishedFigure[] = PUBLISHED_TABLE1.flatMap((model) =>
  Object.entries(model.rates).map(([domain, [passRate, resolveRate]]) => ({ modelName: model.name, displayName: model.displayName, family: model.family, access: model.access, domain, passRate, resolveRate })),
);

const board = buildBoard(
  {
    models: [
      { name: "gpt_5d2", displayName: "GPT-5.2", family: "GPT", access: "closed" },
      { name: "raw_model", displayName: "Raw", family: null, access: null },
    ],
    rates: [
      { model: "gpt_5d2", scope: "overall", key: "all", passNum: 55, passDen: 79, resolveNum: 121, resolveDen: 237 },
      { model: "raw_model", scope: "overall", key: "all", passNum: 70, passDen: 79, resolveNum: null, resolveDen: null },
    ],
    spreads: [],
    runs: new Map([
      ["gpt_5d2", 1],
      ["raw_model", 1],
    ]),
  },
  figures,
);

const state = (overrides: Partial<BoardState>): BoardState => ({ ...DEFAULT_STATE, ...overrides });
const names = (overrides: Partial<BoardState>) => applyView(board.rows, state(overrides)).map((row) => row.name);

describe("board state in the URL", () => {
  it("round-trips every valid state and omits defaults", () => {
    const stateArbitrary = fc.record({
      source: fc.constantFrom(...VIEW_SOURCES),
      sort: fc.constantFrom("rank", "model", "Average.pass", "Research.resolve", "AIGC.pass"),
      dir: fc.constantFrom("asc" as const, "desc" as const),
      by: fc.constantFrom(...SORT_VALUES),
      rankBy: fc.constantFrom("pass" as const, "resolve" as const),
      access: fc.constantFrom(...ACCESS_FILTERS),
      family: fc.constantFrom("", "GPT", "Qwen"),
      q: fc.string({ maxLength: 20 }),
      benchmark: fc.constantFrom("", "chat2workflow", "Chat2Workflow demo"),
      judge: fc.constantFrom("", "rule", "panel:gpt-5.1,rule"),
    });
    fc.assert(
      fc.property(stateArbitrary, (value) => {
        expect(parseBoardState(serializeBoardState(value))).toEqual(value);
      }),
    );
    expect(boardQuery(DEFAULT_STATE)).toBe("");
    expect(boardQuery(state({ source: "published", sort: "Average.pass", dir: "desc" }))).toBe("?source=published&sort=Average.pass&dir=desc");
  });

  it("falls back to defaults for unknown values, and reads Next's array form", () => {
    expect(parseBoardState({ source: "everything", sort: "drop table", dir: "up", access: "secret", rank: "x" })).toEqual(DEFAULT_STATE);
    expect(parseBoardState({ source: ["published", "measured"] }).source).toBe("published");
  });

  it("flips the direction on the same column and starts a new column at its natural direction", () => {
    const byResolve = toggleSort(DEFAULT_STATE, "Average.resolve");
    expect([byResolve.sort, byResolve.dir]).toEqual(["Average.resolve", "desc"]);
    expect(toggleSort(byResolve, "Average.resolve").dir).toBe("asc");
    expect(toggleSort(byResolve, "model").dir).toBe("asc");
    expect(ariaSort(byResolve, "Average.resolve")).toBe("descending");
    expect(ariaSort(byResolve, "rank")).toBe("none");
  });
});

describe("filtering and sorting", () => {
  it("shows the models of the chosen source", () => {
    expect(names({ source: "measured" }).sort()).toEqual(["gpt_5d2", "raw_model"]);
    expect(names({ source: "published" })).toHaveLength(15);
    expect(names({ source: "both" })).toHaveLength(16);
  });

  it("filters by access, family and a search over names", () => {
    expect(names({ source: "published", access: "closed" }).sort()).toEqual(["claude_sonnet4d5", "gemini3_propreview", "gpt_5d1", "gpt_5d2"]);
    expect(names({ source: "published", family: "Qwen" })).toHaveLength(5);
    expect(names({ source: "published", q: "kimi" }).sort()).toEqual(["k2_instruct", "k2_thinking"]);
    // Separators are ignored, so "qwen3 235" finds qwen3_235B_A22B and "gpt5.2" finds GPT-5.2.
    expect(names({ source: "published", q: "qwen3 235" })).toEqual(["qwen3_235B_A22B"]);
    expect(names({ source: "published", q: "gpt5.2" })).toEqual(["gpt_5d2"]);
    // Unknown access is neither open nor closed.
    expect(names({ source: "measured", access: "open" })).toEqual([]);
  });

  it("sorts by a column in either direction with missing figures last", () => {
    const published = (sort: string, dir: "asc" | "desc") => applyView(board.rows, state({ source: "published", sort, dir }));
    const desc = published("Average.pass", "desc").map((row) => row.cells[AVERAGE]!.pass.published!.rate);
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    expect(published("Average.pass", "asc")[0]!.name).toBe("qwen3_8B");
    // raw_model has no resolve figure: last whichever way the resolve column sorts.
    for (const dir of ["asc", "desc"] as const) expect(names({ source: "measured", sort: "Average.resolve", dir }).at(-1)).toBe("raw_model");
    expect(names({ source: "published", sort: "model", dir: "asc" })[0]).toBe("claude_sonnet4d5");
  });

  it("sorts by rank (ties broken by the figure) and, side by side, by the difference", () => {
    const ranked = applyView(board.rows, state({ source: "published" }));
    expect(ranked[0]!.name).toBe("gemini3_propreview");
    const ranks = ranked.map((row) => row.ranks.published.resolve.rank!);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const byDelta = names({ source: "both", sort: "Average.pass", dir: "desc", by: "delta" });
    // Only gpt_5d2 has both figures, so it alone has a difference and leads.
    expect(byDelta[0]).toBe("gpt_5d2");
  });
});

describe("route segments", () => {
  it("decode percent-encoding once and refuse malformed input", () => {
    expect(decodeSegment("odd%20name%252")).toBe("odd name%2");
    expect(decodeSegment("gpt_5d2")).toBe("gpt_5d2");
    expect(decodeSegment("%E0%A4%A")).toBeNull();
  });
});
