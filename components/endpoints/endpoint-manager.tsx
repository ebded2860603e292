"use client";

import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { createEndpointAction, deleteEndpointAction, testEndpointAction, updateEndpointAction } from "@/app/actions/endpoints";
import { Badge } from "@/components/ui/badge";
import { FormField } from "@/components/ui/form-field";
import { ManagedFormFooter, ManagedRowActions } from "@/components/ui/managed-list";
import { buttonStyles, cardStyles, tableStyles } from "@/components/ui/styles";
import type { EndpointView } from "@/lib/server/endpoints/endpoints";

type Mode = { kind: "closed" } | { kind: "add" } | { kind: "edit"; endpoint: EndpointView };

/** Lists endpoints with test/edit/delete, and one form for adding or editing. The key field is write-only. */
export function EndpointManager({ endpoints }: { endpoints: EndpointView[] }) {
  const router = useRouter();
  const [mode, setMode] = useState<Mode>(endpoints.length === 0 ? { kind: "add" } : { kind: "closed" });
  const [status, setStatus] = useState<Record<string, string>>({});
  const [pending, startTransition] = useTransition();

  function test(endpoint: EndpointView) {
    setStatus((current) => ({ ...current, [endpoint.id]: "Testing…" }));
    startTransition(async () => {
      const result = await testEndpointAction({ id: endpoint.id });
      const text = result.ok
        ? `${result.value.ok ? "Connected" : "Failed"}: ${result.value.message}${result.value.replyStart !== null ? `\nReply (first lines): ${result.value.replyStart}` : ""}`
        : result.message;
      setStatus((current) => ({ ...current, [endpoint.id]: text }));
    });
  }

  function remove(endpoint: EndpointView) {
    if (!window.confirm(`Delete the endpoint “${endpoint.label}”? Its verdicts stay; jobs still using it will fail.`)) return;
    startTransition(async () => {
      const result = await deleteEndpointAction({ id: endpoint.id });
      if (!result.ok) setStatus((current) => ({ ...current, [endpoint.id]: result.message }));
      router.refresh();
    });
  }

  return (
    <div className="space-y-6">
      {endpoints.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No endpoint yet. Add one to judge runs with a model of your choice.</p>
      ) : (
        <div className={tableStyles.wrapper}>
          <table className={tableStyles.table} data-testid="endpoints">
            <caption className="sr-only">Model endpoints</caption>
            <thead>
              <tr>
                <th scope="col" className={tableStyles.th}>Name</th>
                <th scope="col" className={tableStyles.th}>Model</th>
                <th scope="col" className={tableStyles.th}>Base URL</th>
                <th scope="col" className={tableStyles.th}>API key</th>
                <th scope="col" className={tableStyles.th}>Limits</th>
                <th scope="col" className={tableStyles.th}>Actions</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {endpoints.map((endpoint) => (
                <tr key={endpoint.id} data-testid="endpoint-row" data-label={endpoint.label}>
                  <td className={`${tableStyles.td} font-medium`}>{endpoint.label}</td>
                  <td className={`${tableStyles.td} font-mono text-xs`}>{endpoint.model}</td>
                  <td className={`${tableStyles.td} font-mono text-xs`}>{endpoint.baseUrl}</td>
                  <td className={tableStyles.td}>
                    {endpoint.hasApiKey ? <Badge tone="good">set{endpoint.apiKeyHint ? ` · …${endpoint.apiKeyHint}` : ""}</Badge> : <Badge>not set</Badge>}
                  </td>
                  <td className={`${tableStyles.td} text-xs`}>
                    {endpoint.concurrency} at once{endpoint.rpm ? ` · ${endpoint.rpm} rpm` : ""}
                    {endpoint.tpm ? ` · ${endpoint.tpm} tpm` : ""} · {Math.round(endpoint.timeoutMs / 1000)} s timeout
                  </td>
                  <td className={tableStyles.td}>
                    <ManagedRowActions
                      label={endpoint.label}
                      testName="Test connection to"
                      pending={pending}
                      status={status[endpoint.id]}
                      statusTestId="endpoint-test-status"
                      onTest={() => test(endpoint)}
                      onEdit={() => setMode({ kind: "edit", endpoint })}
                      onDelete={() => remove(endpoint)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {mode.kind === "closed" ? (
        <button type="button" className={buttonStyles.primary} onClick={() => setMode({ kind: "add" })}>
          Add an endpoint
        </button>
      ) : (
        <EndpointForm
          key={mode.kind === "edit" ? mode.endpoint.id : "new"}
          endpoint={mode.kind === "edit" ? mode.endpoint : null}
          onDone={() => {
            setMode({ kind: "closed" });
            router.refresh();
          }}
          onCancel={endpoints.length > 0 ? () => setMode({ kind: "closed" }) : null}
        />
      )}
    </div>
  );
}

/** Form fields whose validation errors come back under the schema's name. */
const ERROR_KEYS: Record<string, string> = { timeoutSeconds: "timeoutMs", inputPrice: "inputPricePerMTok", outputPrice: "outputPricePerMTok" };

function numberOrNull(value: FormDataEntryValue | null): number | null {
  const text = typeof value === "string" ? value.trim() : "";
  return text === "" ? null : Number(text);
}

function EndpointForm({ endpoint, onDone, onCancel }: { endpoint: EndpointView | null; onDone: () => void; onCancel: (() => void) | null }) {
  const formId = useId();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function submit(form: FormData) {
    setMessage(null);
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
    startTransition(async () => {
      const result = endpoint
        ? await updateEndpointAction({ ...fields, id: endpoint.id, clearApiKey: form.get("clearApiKey") === "on" })
        : await createEndpointAction(fields);
      if (result.ok) {
        onDone();
        return;
      }
      setErrors(result.fieldErrors ?? {});
      setMessage(result.message);
    });
  }

  const field = (name: string, label: string, props: React.InputHTMLAttributes<HTMLInputElement>, hint?: string) => (
    <FormField formId={formId} name={name} label={label} error={errors[ERROR_KEYS[name] ?? name]} {...(hint ? { hint } : {})} {...props} />
  );

  return (
    <form action={submit} className={`${cardStyles} space-y-4`} aria-label={endpoint ? `Edit ${endpoint.label}` : "Add an endpoint"}>
      <h2 className="text-lg font-medium">{endpoint ? `Edit ${endpoint.label}` : "Add an endpoint"}</h2>
      <div className="grid gap-4 sm:grid-cols-2">
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
      </div>
      {endpoint?.hasApiKey ? (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="clearApiKey" /> Remove the stored key
        </label>
      ) : null}
      <ManagedFormFooter message={message} pending={pending} submitLabel={endpoint ? "Save" : "Add endpoint"} onCancel={onCancel} />
    </form>
  );
}
