import { describe, expect, it } from "vitest";
import { buildProgressGrid } from "./progress-grid";

const tasks = [
  { name: "A", rounds: 3 },
  { name: "B", rounds: 2 },
  { name: "C", rounds: 1 },
];

describe("buildProgressGrid", () => {
  it("marks stored turns passed or failed, the leased task's next round running, and the rest pending", () => {
    const { rows, counts } = buildProgressGrid(
      tasks,
      [
        { task: "A", round: 1, responseId: "r1", valid: true, failStep: null },
        { task: "A", round: 2, responseId: "r2", valid: false, failStep: "step_1_2" },
      ],
      [
        { task: "A", status: "leased", error: null },
        { task: "B", status: "pending", error: null },
      ],
    );
    expect(rows.map((row) => row.cells.map((cell) => cell.state))).toEqual([["passed", "failed", "running"], ["pending", "pending"], ["pending"]]);
    expect(rows[0]!.cells[1]).toEqual({ round: 2, state: "failed", responseId: "r2", failStep: "step_1_2", error: null });
    expect(counts).toEqual({ pending: 3, running: 1, passed: 1, failed: 1, error: 0 });
  });

  it("shows a failed item (or one waiting to retry after an error) on its first missing round only", () => {
    const { rows, counts } = buildProgressGrid(
      tasks,
      [{ task: "B", round: 1, responseId: "b1", valid: null, failStep: null }],
      [
        { task: "A", status: "failed", error: "HTTP 500" },
        { task: "B", status: "pending", error: "timeout" },
        { task: "C", status: "done", error: null },
      ],
    );
    expect(rows[0]!.cells.map((cell) => [cell.state, cell.error])).toEqual([
      ["error", "HTTP 500"],
      ["pending", null],
      ["pending", null],
    ]);
    // B round 1 is stored but not yet scored: still running; round 2 waits for the retry.
    expect(rows[1]!.cells.map((cell) => cell.state)).toEqual(["running", "error"]);
    expect(counts.error).toBe(2);
    expect(counts.pending + counts.running + counts.passed + counts.failed + counts.error).toBe(6);
  });
});
