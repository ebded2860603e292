import { describe, expect, it } from "vitest";
import { toPostgresStatement } from "./postgres-statement";

describe("toPostgresStatement", () => {
  it("numbers ? parameters in order", () => {
    expect(toPostgresStatement(`SELECT * FROM "Run" WHERE "benchmarkId" = ? AND "id" IN (?, ?)`)).toBe(
      `SELECT * FROM "Run" WHERE "benchmarkId" = $1 AND "id" IN ($2, $3)`,
    );
  });

  it("leaves question marks inside strings, identifiers and comments alone", () => {
    expect(toPostgresStatement(`SELECT 'why?' AS "what?", 'it''s ?' FROM t -- really?\nWHERE a = ?`)).toBe(
      `SELECT 'why?' AS "what?", 'it''s ?' FROM t -- really?\nWHERE a = $1`,
    );
  });

  it("drops SQLite index hints but keeps the statement around them", () => {
    expect(toPostgresStatement(`SELECT 1 FROM "JudgeVerdict" j INDEXED BY "JudgeVerdict_stage_judge_idx" JOIN "Response" r ON r."id" = j."responseId" WHERE j."stage" = ?`)).toBe(
      `SELECT 1 FROM "JudgeVerdict" j JOIN "Response" r ON r."id" = j."responseId" WHERE j."stage" = $1`,
    );
    expect(toPostgresStatement(`CROSS JOIN "Response" r INDEXED BY "Response_turnId_runId_id_idx"\n CROSS JOIN p`)).toBe(`CROSS JOIN "Response" r\n CROSS JOIN p`);
  });

  it("does not mistake a column named like the hint for one", () => {
    expect(toPostgresStatement(`SELECT "INDEXED BY" FROM t WHERE x = ?`)).toBe(`SELECT "INDEXED BY" FROM t WHERE x = $1`);
  });
});
