import { describe, expect, it } from "vitest";
import { ownAgreement } from "./own-agreement";

describe("ownAgreement", () => {
  it("counts each other annotator's vote on an item I voted on as one pair, and my votes matching the judge", () => {
    const mine = [
      { itemId: "a", pass: true, judgePass: true },
      { itemId: "b", pass: false, judgePass: true },
      { itemId: "c", pass: true, judgePass: false },
    ];
    const others = [
      { itemId: "a", pass: true },
      { itemId: "a", pass: false },
      { itemId: "b", pass: false },
      { itemId: "z", pass: true },
    ];
    expect(ownAgreement(mine, others)).toEqual({ withOthers: { agree: 2, pairs: 3, items: 2 }, withJudge: { agree: 1, votes: 3 } });
  });

  it("has no pairs when nobody else voted on my items", () => {
    expect(ownAgreement([{ itemId: "a", pass: true, judgePass: true }], [])).toEqual({ withOthers: { agree: 0, pairs: 0, items: 0 }, withJudge: { agree: 1, votes: 1 } });
  });
});
