import { describe, expect, it } from "vitest";
import { annotatorProgress, isAvailableTo, LOCK_MS, lockExpiry, nextItem, previousItem, queueProgress, resumeItem, type ItemState } from "./ordering";

const NOW = new Date("2026-12-01T10:00:00Z");
const later = (ms: number) => new Date(NOW.getTime() + ms);

function item(position: number, voters: string[] = [], lockedBy: string | null = null, lockedUntil: Date | null = null): ItemState {
  return { id: `i${position}`, position, voters, lockedBy, lockedUntil };
}

describe("serving items", () => {
  it("locks for two minutes", () => {
    expect(lockExpiry(NOW).getTime() - NOW.getTime()).toBe(LOCK_MS);
    expect(LOCK_MS).toBe(120_000);
  });

  it("resumes at the first item the annotator has not voted on", () => {
    const items = [item(0, ["ann"]), item(1, ["ann"]), item(2), item(3)];
    expect(resumeItem(items, "ann", 3, NOW)?.id).toBe("i2");
  });

  it("resumes at an item the annotator still holds a live lock on, before earlier open items", () => {
    const items = [item(0), item(1), item(2, [], "ann", later(60_000))];
    expect(resumeItem(items, "ann", 3, NOW)?.id).toBe("i2");
  });

  it("skips items another annotator holds, until their lock expires", () => {
    const items = [item(0, [], "bob", later(60_000)), item(1)];
    expect(resumeItem(items, "ann", 3, NOW)?.id).toBe("i1");
    expect(resumeItem(items, "ann", 3, later(61_000))?.id).toBe("i0");
    expect(isAvailableTo(items[0]!, "bob", 3, NOW)).toBe(true);
  });

  it("skips items that already have all their votes", () => {
    const items = [item(0, ["bob", "cat"]), item(1, ["bob"])];
    expect(resumeItem(items, "ann", 2, NOW)?.id).toBe("i1");
    expect(resumeItem(items, "ann", 1, NOW)).toBeNull();
  });

  it("is done when nothing is left", () => {
    expect(resumeItem([item(0, ["ann"])], "ann", 3, NOW)).toBeNull();
    expect(resumeItem([], "ann", 3, NOW)).toBeNull();
  });

  it("never serves two annotators the same open item while the first holds it", () => {
    const items = [item(0), item(1), item(2)];
    const first = resumeItem(items, "ann", 3, NOW)!;
    const locked = items.map((state) => (state.id === first.id ? { ...state, lockedBy: "ann", lockedUntil: lockExpiry(NOW) } : state));
    const second = resumeItem(locked, "bob", 3, NOW)!;
    expect(second.id).not.toBe(first.id);
  });
});

describe("next and back", () => {
  const items = [item(0, ["ann"]), item(1, ["ann"]), item(2), item(3, [], "bob", later(60_000)), item(4)];

  it("walks forward through earlier votes, then to open items, skipping locked ones", () => {
    expect(nextItem(items, "ann", 3, NOW, 0)?.id).toBe("i1");
    expect(nextItem(items, "ann", 3, NOW, 1)?.id).toBe("i2");
    expect(nextItem(items, "ann", 3, NOW, 2)?.id).toBe("i4");
  });

  it("wraps to an earlier open item that was skipped", () => {
    expect(nextItem(items, "ann", 3, NOW, 4)?.id).toBe("i2");
    expect(nextItem([item(0, ["ann"]), item(1, ["ann"])], "ann", 3, NOW, 1)).toBeNull();
  });

  it("goes back only to items the annotator voted on", () => {
    expect(previousItem(items, "ann", 4)?.id).toBe("i1");
    expect(previousItem(items, "ann", 1)?.id).toBe("i0");
    expect(previousItem(items, "ann", 0)).toBeNull();
    expect(previousItem(items, "ann", null)?.id).toBe("i1");
    expect(previousItem(items, "bob", null)).toBeNull();
  });
});

describe("progress", () => {
  it("counts an annotator's votes and what is left for them", () => {
    const items = [item(0, ["ann", "bob"]), item(1, ["bob", "cat"]), item(2, ["bob"]), item(3)];
    expect(annotatorProgress(items, "ann", 2)).toEqual({ voted: 1, remaining: 2, total: 3 });
    expect(annotatorProgress(items, "bob", 2)).toEqual({ voted: 3, remaining: 1, total: 4 });
  });

  it("counts a queue's votes towards its target, at most annotatorsPerItem per item", () => {
    const items = [item(0, ["a", "b", "c", "d"]), item(1, ["a"]), item(2)];
    expect(queueProgress(items, 3)).toEqual({ items: 3, complete: 1, votes: 4, target: 9 });
    expect(queueProgress([], 3)).toEqual({ items: 0, complete: 0, votes: 0, target: 0 });
  });
});
