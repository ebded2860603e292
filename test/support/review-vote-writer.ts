// A second (third, …) process that votes in a review queue, for the concurrency integration test: its own SQLite
// connection, so two of these really write to the same file at the same time. It prints "ready", waits for "go" on
// stdin, votes, prints "done <count>" and exits.
//   sweep:  vote through the queue as the annotator (claim the next item under its lock, vote, repeat)
//   hammer: submit a vote on one item `rounds` times, alternating the verdict
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { voteInputSchema } from "@/lib/review/votes";
import { claimReviewItem, submitReviewVote } from "@/lib/server/data/review";
import { createDatabaseClient } from "@/lib/server/db";
import { findUserById } from "@/lib/server/users";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { mode: { type: "string" }, queue: { type: "string" }, user: { type: "string" }, item: { type: "string" }, rounds: { type: "string" }, incorrect: { type: "string" } },
  });
  const db = createDatabaseClient(process.env.DATABASE_URL!);
  const actor = await findUserById(db, values.user!);
  if (!actor) throw new Error(`no user ${values.user}`);
  const incorrect = new Set((values.incorrect ?? "").split(",").filter(Boolean).map(Number));
  const lines = createInterface({ input: process.stdin });
  console.log("ready");
  await new Promise<void>((resolve) => lines.once("line", () => resolve()));
  let count = 0;
  if (values.mode === "hammer") {
    const rounds = Number(values.rounds ?? 10);
    // A first vote needs the annotator's lock on the item, as on the review page.
    const target = await db.reviewItem.findUniqueOrThrow({ where: { id: values.item! }, select: { queueId: true } });
    await claimReviewItem(db, actor, target.queueId, { kind: "item", itemId: values.item! });
    for (let round = 0; round < rounds; round++) {
      const result = await submitReviewVote(db, actor, voteInputSchema.parse({ itemId: values.item, judgeCorrect: round % 2 ? "incorrect" : "correct", comment: `${process.pid} ${round}` }));
      if (result.ok) count += 1;
    }
  } else {
    for (;;) {
      const outcome = await claimReviewItem(db, actor, values.queue!, { kind: "resume" });
      if (outcome?.kind === "waiting") {
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      if (outcome?.kind !== "item") break;
      const judgeCorrect = incorrect.has(outcome.item.position) ? "incorrect" : "correct";
      const result = await submitReviewVote(db, actor, voteInputSchema.parse({ itemId: outcome.item.id, judgeCorrect, followedRules: "yes" }));
      if (result.ok) count += 1;
    }
  }
  console.log(`done ${count}`);
  lines.close();
  await db.$disconnect();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
