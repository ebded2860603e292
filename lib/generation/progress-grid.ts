// The live task × round grid of one generated run: from the stored turns and the generate job's item per task, each
// cell's state (pending, running, passed, failed, error). Pure; a task's rounds are generated in order, so only its
// first missing round can be running or in error.

export type GridCellState = "pending" | "running" | "passed" | "failed" | "error";

export interface GridCell {
  round: number;
  state: GridCellState;
  responseId: string | null;
  failStep: string | null;
  error: string | null;
}

export interface GridRow {
  task: string;
  cells: GridCell[];
}

export type GridCounts = Record<GridCellState, number>;

export interface GridTask {
  name: string;
  rounds: number;
}

export interface GridTurn {
  task: string;
  round: number;
  responseId: string;
  /** null while the turn is stored but not yet scored. */
  valid: boolean | null;
  failStep: string | null;
}

/** The generate item of one task: "pending" | "leased" | "done" | "failed" | "cancelled". */
export interface GridItem {
  task: string;
  status: string;
  error: string | null;
}

export function emptyCounts(): GridCounts {
  return { pending: 0, running: 0, passed: 0, failed: 0, error: 0 };
}

export function buildProgressGrid(tasks: readonly GridTask[], turns: readonly GridTurn[], items: readonly GridItem[]): { rows: GridRow[]; counts: GridCounts } {
  const turnAt = new Map(turns.map((turn) => [`${turn.task}\u0000${turn.round}`, turn]));
  const itemOf = new Map(items.map((item) => [item.task, item]));
  const counts = emptyCounts();
  const rows = tasks.map((task) => {
    const item = itemOf.get(task.name);
    let firstMissing = true;
    const cells: GridCell[] = [];
    for (let round = 1; round <= task.rounds; round++) {
      const turn = turnAt.get(`${task.name}\u0000${round}`);
      let cell: GridCell;
      if (turn) {
        const state: GridCellState = turn.valid === null ? "running" : turn.valid ? "passed" : "failed";
        cell = { round, state, responseId: turn.responseId, failStep: turn.valid === false ? turn.failStep : null, error: null };
      } else {
        let state: GridCellState = "pending";
        let error: string | null = null;
        if (firstMissing && item) {
          if (item.status === "leased") state = "running";
          else if (item.status === "failed" || (item.status === "pending" && item.error)) {
            state = "error";
            error = item.error;
          }
        }
        firstMissing = false;
        cell = { round, state, responseId: null, failStep: null, error };
      }
      counts[cell.state] += 1;
      cells.push(cell);
    }
    return { task: task.name, cells };
  });
  return { rows, counts };
}
