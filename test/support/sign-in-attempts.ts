// A second app process for the sign-in tests: reserves `count` wrong attempts for an account from an address on the
// database DATABASE_URL names, and prints what each got. Run with tsx (react-server condition).
import { createDatabaseClient } from "@/lib/server/db";
import { reserveSignInAttempt } from "@/lib/server/sign-in-throttle";

async function main(): Promise<void> {
  const [email, address, count] = process.argv.slice(2) as [string, string, string];
  const db = createDatabaseClient(process.env.DATABASE_URL!);
  const outcomes: (number | "checked")[] = [];
  for (let i = 0; i < Number(count); i++) {
    const reservation = await reserveSignInAttempt(db, email, address);
    if (reservation.ok) {
      await reservation.settle(false);
      outcomes.push("checked");
    } else outcomes.push(reservation.retryAfterSeconds);
  }
  await db.$disconnect();
  console.log(JSON.stringify(outcomes));
}

void main();
