"use client";

import { createEndpointAction, deleteEndpointAction, testEndpointAction, updateEndpointAction } from "@/app/actions/endpoints";
import { Badge } from "@/components/ui/badge";
import { ConnectionManager, type ConnectionKind } from "@/components/settings/connection-manager";
import type { ConnectionTest, EndpointView } from "@/lib/server/endpoints/endpoints";

function numberOrNull(value: FormDataEntryValue | null): number | null {
  const text = typeof value === "string" ? value.trim() : "";
  return text === "" ? null : Number(text);
}

const ENDPOINTS: ConnectionKind<EndpointView, ConnectionTest> = {
  table: { caption: "Model endpoints", testId: "endpoints", rowTestId: "endpoint-row" },
  columns: [
    { header: "Model", className: "font-mono text-xs", cell: (endpoint) => endpoint.model },
    { header: "Base URL", className: "font-mono text-xs", cell: (endpoint) => endpoint.baseUrl },
    {
      header: "API key",
      cell: (endpoint) => (endpoint.hasApiKey ? <Badge tone="good">set{endpoint.apiKeyHint ? ` · …${endpoint.apiKeyHint}` : ""}</Badge> : <Badge>not set</Badge>),
    },
    {
      header: "Limits",
      className: "text-xs",
      cell: (endpoint) => (
        <>
          {endpoint.concurrency} at once{endpoint.rpm ? ` · ${endpoint.rpm} rpm` : ""}
          {endpoint.tpm ? ` · ${endpoint.tpm} tpm` : ""} · {Math.round(endpoint.timeoutMs / 1000)} s timeout
        </>
      ),
    },
  ],
  empty: "No endpoint yet. Add one to judge runs with a model of your choice.",
  addTitle: "Add an endpoint",
  addSubmit: "Add endpoint",
  test: {
    name: "Test connection to",
    running: "Testing…",
    statusTestId: "endpoint-test-status",
    run: testEndpointAction,
    describe: (outcome) => `${outcome.ok ? "Connected" : "Failed"}: ${outcome.message}${outcome.replyStart !== null ? `\nReply (first lines): ${outcome.replyStart}` : ""}`,
  },
  remove: {
    confirm: (endpoint) => `Delete the endpoint “${endpoint.label}”? Its verdicts stay; jobs still using it will fail.`,
    run: deleteEndpointAction,
  },
  form: {
    errorKeys: { timeoutSeconds: "timeoutMs", inputPrice: "inputPricePerMTok", outputPrice: "outputPricePerMTok" },
    fields: (field, endpoint) => (
      <>
        {field("label", "Name (the judge label of its verdicts)", { required: true, defaultValue: endpoint?.label ?? "", maxLength: 80 })}
        {field("model", "Model id", { required: true, defaultValue: endpoint?.model ?? "", placeholder: "gpt-5.1" })}
        {field("baseUrl", "Base URL", { required: true, defaultValue: endpoint?.baseUrl ?? "", placeholder: "http://127.0.0.1:8000/v1", type: "url" })}
        {field(
          "apiKey",
          "API key",
          { type: "password", autoComplete: "off", defaultValue: "", placeholder: endpoint?.hasApiKey ? "leave empty to keep the stored key" : "optional for local servers" },
          endpoint?.hasApiKey ? `A key is set${endpoint.apiKeyHint ? ` (ends in ${endpoint.apiKeyHint})` : ""}. Type a new one to replace it.` : "Stored encrypted; never shown again.",
        )}
        {field("temperature", "Temperature", { type: "number", step: "0.1", min: 0, max: 2, defaultValue: endpoint?.temperature ?? 0 })}
        {field("maxTokens", "Max tokens", { type: "number", min: 1, defaultValue: endpoint?.maxTokens ?? "" }, "Empty: the server's default.")}
        {field("concurrency", "Calls at once", { type: "number", min: 1, max: 256, defaultValue: endpoint?.concurrency ?? 4 })}
        {field("timeoutSeconds", "Timeout (seconds)", { type: "number", min: 1, max: 600, defaultValue: endpoint ? Math.round(endpoint.timeoutMs / 1000) : 60 })}
        {field("rpm", "Requests per minute", { type: "number", min: 1, defaultValue: endpoint?.rpm ?? "" }, "Empty: unlimited.")}
        {field("tpm", "Tokens per minute", { type: "number", min: 1, defaultValue: endpoint?.tpm ?? "" }, "Empty: unlimited.")}
        {field("inputPrice", "Input price (USD per million tokens)", { type: "number", step: "0.01", min: 0, defaultValue: endpoint?.inputPricePerMTok ?? "" }, "For cost estimates; optional.")}
        {field("outputPrice", "Output price (USD per million tokens)", { type: "number", step: "0.01", min: 0, defaultValue: endpoint?.outputPricePerMTok ?? "" })}
      </>
    ),
    extra: (endpoint) =>
      endpoint?.hasApiKey ? (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="clearApiKey" /> Remove the stored key
        </label>
      ) : null,
    save: (form, endpoint) => {
      const fields = {
        label: String(form.get("label") ?? ""),
        baseUrl: String(form.get("baseUrl") ?? ""),
        model: String(form.get("model") ?? ""),
        temperature: numberOrNull(form.get("temperature")) ?? 0,
        maxTokens: numberOrNull(form.get("maxTokens")),
        concurrency: numberOrNull(form.get("concurrency")) ?? 4,
        rpm: numberOrNull(form.get("rpm")),
        tpm: numberOrNull(form.get("tpm")),
        timeoutMs: (numberOrNull(form.get("timeoutSeconds")) ?? 60) * 1000,
        inputPricePerMTok: numberOrNull(form.get("inputPrice")),
        outputPricePerMTok: numberOrNull(form.get("outputPrice")),
        apiKey: String(form.get("apiKey") ?? ""),
      };
      return endpoint ? updateEndpointAction({ ...fields, id: endpoint.id, clearApiKey: form.get("clearApiKey") === "on" }) : createEndpointAction(fields);
    },
  },
};

/** Lists endpoints with test/edit/delete, and one form for adding or editing. The key field is write-only. */
export function EndpointManager({ endpoints }: { endpoints: EndpointView[] }) {
  return <ConnectionManager kind={ENDPOINTS} items={endpoints} />;
}
