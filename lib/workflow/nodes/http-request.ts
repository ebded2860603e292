// The `http-request` node type: A GET request to the URL held by a variable.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { shape } from "../../zod-fast-path";
import { NODE_TYPES } from "../node-types";
import { preview, pyStr, type JsonValue } from "../python-values";
import { fail } from "./failure";
import { selector } from "./schema";
import { cozeIcon } from "./coze-common";
import { fixedOutputs } from "./variables";
import type { CozeBuildContext, CozeNodeParts, DifyBuildContext, DifyPart, NodeSpec } from "./types";

function toDify(ctx: DifyBuildContext, param: JsonValue, title: string): DifyPart {
  const url = ctx.resolveSelector(ctx.param(param, "url"), ["url"]);
  if (typeof url.variable !== "string") {
    fail({
      code: "variable-name-not-string",
      message: `${ctx.nodeRef()}: the url variable ${preview(url.variable)} is not a string.`,
      location: ctx.at(["url", 0]),
    });
  }
  if (ctx.checkOnly) return { facts: { type: "http-request" } };
  return {
    facts: { type: "http-request" },
    data: {
      authorization: { config: null, type: "no-auth" },
      body: { data: [], type: "none" },
      headers: ctx.githubToken ? `Authorization:Bearer:${ctx.githubToken}` : "",
      method: "get",
      params: "",
      retry_config: { max_retries: 3, retry_enabled: true, retry_interval: 100 },
      selected: false,
      ssl_verify: true,
      timeout: { max_connect_timeout: 0, max_read_timeout: 0, max_write_timeout: 0 },
      title,
      type: "http-request",
      url: `{{#${url.node.difyId}.${url.variable}#}}`,
      variables: [],
    },
  };
}

function toCoze(ctx: CozeBuildContext, param: JsonValue): CozeNodeParts {
  const url = ctx.selector(ctx.param(param, "url"), ["url"]);
  return {
    parameters: {
      apiInfo: { method: "GET", url: `{{block_output_${url.ref_node}.${pyStr(url.path)}}}` },
      auth: {
        authData: { bearerTokenData: [{ name: "token", input: { type: "string", value: ctx.githubToken || "EMPTY" } }], customData: { addTo: "header" } },
        authOpen: true,
        authType: "BEARER_AUTH",
      },
      body: {
        bodyData: { binary: { fileURL: { type: "string", value: { content: { blockID: "", name: "", source: "block-output" }, type: "ref" } } } },
        bodyType: "EMPTY",
      },
    },
  };
}

const variables = fixedOutputs("http-request", { body: "string", status_code: "number", headers: "object", files: "array[file]" });

export const httpRequestNode: NodeSpec = {
  type: "http-request",
  info: NODE_TYPES["http-request"],
  paramShape: shape.object({ url: selector }),
  requiredParams: ["url"],
  textParams: [],
  selectorParams: [{ key: "url", shape: "selector" }],
  variables,
  branching: false,
  toDify,
  coze: {
    kind: "node",
    cozeType: "http",
    baseTitle: "HTTP Request",
    icon: cozeIcon("icon-HTTP.png"),
    description: "Sends HTTP/API requests to external services and returns the data from the interface.",
    build: toCoze,
  },
};
