import { describe, expect, it } from "vitest";
import { filterRows, sortRows } from "./sort-filter";

const rows = [
  { id: "a", values: ["Study10", 0.5, null], text: "Study10 Education" },
  { id: "b", values: ["Study2", null, 3], text: "Study2 Research" },
  { id: "c", values: ["Mermaid", 0.9, 1], text: "Mermaid Developer" },
];
const ids = (list: { id: string }[]) => list.map((row) => row.id);

describe("list table sorting and filtering", () => {
  it("sorts numbers and names (natural order) either way, rows without a value last", () => {
    expect(ids(sortRows(rows, 0, "asc"))).toEqual(["c", "b", "a"]);
    expect(ids(sortRows(rows, 1, "desc"))).toEqual(["c", "a", "b"]);
    expect(ids(sortRows(rows, 1, "asc"))).toEqual(["a", "c", "b"]);
    expect(ids(sortRows(rows, null, "asc"))).toEqual(["a", "b", "c"]);
  });

  it("keeps rows containing every typed word", () => {
    expect(ids(filterRows(rows, "study"))).toEqual(["a", "b"]);
    expect(ids(filterRows(rows, "STUDY research"))).toEqual(["b"]);
    expect(ids(filterRows(rows, "  "))).toEqual(["a", "b", "c"]);
  });
});
