"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authorizedAction, type ActionResult } from "@/lib/server/action";
import { database } from "@/lib/server/db";
import { setCozeGithubToken, setDefaultBenchmark } from "@/lib/server/data/settings";

const schema = z.object({ benchmarkId: z.string().min(1).max(100) });

const setDefault = authorizedAction("administer", schema, async ({ benchmarkId }, user): Promise<ActionResult<null>> => {
  if (!(await setDefaultBenchmark(database(), user, benchmarkId))) return { ok: false, error: "failed", message: "That benchmark no longer exists." };
  revalidatePath("/");
  return { ok: true, value: null };
});

/** Makes a benchmark the one pages open on when their URL names none (admins only). */
export async function setDefaultBenchmarkAction(input: { benchmarkId: string }) {
  return setDefault(input);
}

const tokenSchema = z.object({ token: z.string().max(500) });

const setToken = authorizedAction("manageEndpoints", tokenSchema, async ({ token }, user): Promise<ActionResult<null>> => {
  await setCozeGithubToken(database(), user, token);
  revalidatePath("/settings/coze");
  return { ok: true, value: null };
});

/** Stores the GitHub token Coze packages write into HTTP nodes (encrypted; an empty token clears it). */
export async function setCozeGithubTokenAction(input: { token: string }) {
  return setToken(input);
}
