import "server-only";
// The settings pages' add, save, delete and test actions for a kind of connection (model endpoints, Dify
// connections): one authorization, duplicate-name answer and page refresh for both kinds.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authorizedAction, type ActionResult } from "./action";
import { database, type Database } from "./db";
import { isUniqueViolation } from "./errors";
import type { SecretChange } from "./connection-settings";
import type { SessionUser } from "./session";

const idSchema = z.object({ id: z.string().min(1).max(100) });

/** What an action writes: the kind's fields and what becomes of its secret. */
export interface ConnectionWrite<Fields> {
  fields: Fields;
  secret: SecretChange;
}

export function connectionActions<CreateSchema extends z.ZodType, UpdateSchema extends z.ZodType<{ id: string }>, Fields, View, Test>(kind: {
  /** "endpoint", "Dify connection": named in the answers. */
  noun: string;
  /** The settings page to refresh after a change. */
  page: string;
  createSchema: CreateSchema;
  updateSchema: UpdateSchema;
  toCreate: (input: z.output<CreateSchema>) => ConnectionWrite<Fields>;
  toUpdate: (input: z.output<UpdateSchema>) => ConnectionWrite<Fields>;
  service: {
    create(db: Database, actor: SessionUser, fields: Fields, secret: SecretChange): Promise<View>;
    update(db: Database, actor: SessionUser, id: string, fields: Fields, secret: SecretChange): Promise<View | null>;
    remove(db: Database, actor: SessionUser, id: string): Promise<boolean>;
  };
  test: (db: Database, actor: SessionUser, id: string) => Promise<Test | null>;
}) {
  const gone = { ok: false as const, error: "failed" as const, message: `That ${kind.noun} no longer exists.` };
  const taken = `Another ${kind.noun} has this name.`;
  const saved = async (write: () => Promise<View | null>): Promise<ActionResult<View>> => {
    try {
      const view = await write();
      if (!view) return gone;
      revalidatePath(kind.page);
      return { ok: true, value: view };
    } catch (error) {
      if (isUniqueViolation(error)) return { ok: false, error: "invalid", message: taken, fieldErrors: { label: taken } };
      throw error;
    }
  };

  return {
    create: authorizedAction("manageEndpoints", kind.createSchema, async (input, user) => {
      const { fields, secret } = kind.toCreate(input);
      return saved(() => kind.service.create(database(), user, fields, secret));
    }),
    update: authorizedAction("manageEndpoints", kind.updateSchema, async (input, user) => {
      const { fields, secret } = kind.toUpdate(input);
      return saved(() => kind.service.update(database(), user, input.id, fields, secret));
    }),
    remove: authorizedAction("manageEndpoints", idSchema, async ({ id }, user): Promise<ActionResult<null>> => {
      if (!(await kind.service.remove(database(), user, id))) return gone;
      revalidatePath(kind.page);
      return { ok: true, value: null };
    }),
    test: authorizedAction("manageEndpoints", idSchema, async ({ id }, user): Promise<ActionResult<Test>> => {
      const outcome = await kind.test(database(), user, id);
      return outcome ? { ok: true, value: outcome } : gone;
    }),
  };
}
