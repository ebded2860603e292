"use server";

import { z } from "zod";
import { connectionActions } from "@/lib/server/connection-actions";
import { difyConnectionFieldsSchema, difyConnectionSettings, testDifyConnection } from "@/lib/server/dify-connections/connections";

// The password is write-only: required when adding, an empty field keeps the stored one when editing.
const createSchema = difyConnectionFieldsSchema.extend({ password: z.string().min(1, "the Dify account's password").max(500) });
const updateSchema = difyConnectionFieldsSchema.extend({ id: z.string().min(1).max(100), password: z.string().max(500).optional() });

const actions = connectionActions({
  noun: "Dify connection",
  page: "/settings/dify",
  createSchema,
  updateSchema,
  toCreate: ({ password, ...fields }) => ({ fields, secret: { set: password } }),
  toUpdate: ({ id: _id, password, ...fields }) => ({ fields, secret: password ? { set: password } : "keep" }),
  service: difyConnectionSettings,
  test: (db, actor, id) => testDifyConnection(db, actor, id),
});

export const createDifyConnectionAction = actions.create;
export const updateDifyConnectionAction = actions.update;
export const deleteDifyConnectionAction = actions.remove;
/** Signs in to Dify with the stored account and reports whether it worked. */
export const testDifyConnectionAction = actions.test;
