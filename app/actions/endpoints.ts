"use server";

import { z } from "zod";
import { connectionActions } from "@/lib/server/connection-actions";
import { endpointFieldsSchema, endpointSettings, testEndpointConnection } from "@/lib/server/endpoints/endpoints";

// The key is write-only: an empty field keeps the stored key; "clearApiKey" removes it.
const apiKeyField = z.string().trim().max(500).optional();

const createSchema = endpointFieldsSchema.extend({ apiKey: apiKeyField });
const updateSchema = endpointFieldsSchema.extend({ id: z.string().min(1).max(100), apiKey: apiKeyField, clearApiKey: z.boolean().default(false) });

const actions = connectionActions({
  noun: "endpoint",
  page: "/settings/endpoints",
  createSchema,
  updateSchema,
  toCreate: ({ apiKey, ...fields }) => ({ fields, secret: apiKey ? { set: apiKey } : "clear" }),
  toUpdate: ({ id: _id, apiKey, clearApiKey, ...fields }) => ({ fields, secret: apiKey ? { set: apiKey } : clearApiKey ? "clear" : "keep" }),
  service: endpointSettings,
  test: testEndpointConnection,
});

export const createEndpointAction = actions.create;
export const updateEndpointAction = actions.update;
export const deleteEndpointAction = actions.remove;
/** Sends one tiny uncached call to the endpoint and reports whether it answered. */
export const testEndpointAction = actions.test;
