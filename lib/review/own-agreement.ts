// How an annotator's own votes compare: with the other annotators who voted on the same items (pairwise: each other
// vote on an item I voted on is one pair), and with the judge's verdict, which blind review reveals once I have voted.

export interface MyVote {
  itemId: string;
  /** My verdict on the item (true = pass). */
  pass: boolean;
  /** The judge's verdict on the item. */
  judgePass: boolean;
}

export interface OtherVote {
  itemId: string;
  pass: boolean;
}

export interface OwnAgreement {
  /** Pairs (my vote, another annotator's vote on the same item) that agree, of all such pairs. */
  withOthers: { agree: number; pairs: number; items: number };
  /** My votes that match the judge's verdict, of my votes. */
  withJudge: { agree: number; votes: number };
}

export function ownAgreement(mine: readonly MyVote[], others: readonly OtherVote[]): OwnAgreement {
  const myPass = new Map(mine.map((vote) => [vote.itemId, vote.pass]));
  let agree = 0;
  let pairs = 0;
  const shared = new Set<string>();
  for (const vote of others) {
    const own = myPass.get(vote.itemId);
    if (own === undefined) continue;
    pairs += 1;
    shared.add(vote.itemId);
    if (own === vote.pass) agree += 1;
  }
  return {
    withOthers: { agree, pairs, items: shared.size },
    withJudge: { agree: mine.filter((vote) => vote.pass === vote.judgePass).length, votes: mine.length },
  };
}
