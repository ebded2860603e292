"use client";

import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { createDifyConnectionAction, deleteDifyConnectionAction, testDifyConnectionAction, updateDifyConnectionAction } from "@/app/actions/dify-connections";
import { Badge } from "@/components/ui/badge";
import { FormField } from "@/components/ui/form-field";
import { ManagedFormFooter, ManagedRowActions } from "@/components/ui/managed-list";
import { buttonStyles, cardStyles, tableStyles } from "@/components/ui/styles";
import type { DifyConnectionTest, DifyConnectionView } from "@/lib/server/dify-connections/connections";

type Mode = { kind: "closed" } | { kind: "add" } | { kind: "edit"; connection: DifyConnectionView };

const minutes = (ms: number) => Math.round(ms / 60_000);

/** Lists Dify connections with test (sign in), edit and delete, and one form for adding or editing. */
export function DifyConnectionManager({ connections }: { connections: DifyConnectionView[] }) {
  const router = useRouter();
  const [mode, setMode] = useState<Mode>(connections.length === 0 ? { kind: "add" } : { kind: "closed" });
  const [status, setStatus] = useState<Record<string, string>>({});
  const [checks, setChecks] = useState<Record<string, DifyConnectionTest>>({});
  const [pending, startTransition] = useTransition();

  function test(connection: DifyConnectionView) {
    setStatus((current) => ({ ...current, [connection.id]: "Signing in…" }));
    startTransition(async () => {
      const result = await testDifyConnectionAction({ id: connection.id });
      const text = result.ok ? `${result.value.ok ? "Connected" : "Failed"}: ${result.value.message}` : result.message;
      setStatus((current) => ({ ...current, [connection.id]: text }));
      if (result.ok) setChecks((current) => ({ ...current, [connection.id]: result.value }));
    });
  }

  function remove(connection: DifyConnectionView) {
    if (!window.confirm(`Delete the Dify connection “${connection.label}”? Results already recorded stay; executions still using it will fail.`)) return;
    startTransition(async () => {
      const result = await deleteDifyConnectionAction({ id: connection.id });
      if (!result.ok) setStatus((current) => ({ ...current, [connection.id]: result.message }));
      router.refresh();
    });
  }

  return (
    <div className="space-y-6">
      {connections.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No Dify connection yet. Add one to execute generated workflows and their test cases.</p>
      ) : (
        <div className={tableStyles.wrapper}>
          <table className={tableStyles.table} data-testid="dify-connections">
            <caption className="sr-only">Dify connections</caption>
            <thead>
              <tr>
                <th scope="col" className={tableStyles.th}>Name</th>
                <th scope="col" className={tableStyles.th}>Origin</th>
                <th scope="col" className={tableStyles.th}>Account</th>
                <th scope="col" className={tableStyles.th}>Password</th>
                <th scope="col" className={tableStyles.th}>Runs</th>
                <th scope="col" className={tableStyles.th}>Actions</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {connections.map((connection) => (
                <tr key={connection.id} data-testid="dify-connection-row" data-label={connection.label}>
                  <td className={`${tableStyles.td} font-medium`}>{connection.label}</td>
                  <td className={`${tableStyles.td} font-mono text-xs`}>{connection.baseUrl}</td>
                  <td className={`${tableStyles.td} text-xs`}>{connection.email}</td>
                  <td className={tableStyles.td}>{connection.hasPassword ? <Badge tone="good">set</Badge> : <Badge>not set</Badge>}</td>
                  <td className={`${tableStyles.td} text-xs`}>
                    {minutes(connection.runTimeoutMs)} min timeout · {connection.keepApps ? "apps kept" : "apps deleted afterwards"}
                  </td>
                  <td className={tableStyles.td}>
                    <ManagedRowActions
                      label={connection.label}
                      testName="Test sign-in to"
                      pending={pending}
                      status={status[connection.id]}
                      statusTestId="dify-test-status"
                      onTest={() => test(connection)}
                      onEdit={() => setMode({ kind: "edit", connection })}
                      onDelete={() => remove(connection)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {connections.map((connection) => {
        const check = checks[connection.id];
        return check?.ok ? <Readiness key={connection.id} label={connection.label} check={check} /> : null;
      })}
      {mode.kind === "closed" ? (
        <button type="button" className={buttonStyles.primary} onClick={() => setMode({ kind: "add" })}>
          Add a Dify connection
        </button>
      ) : (
        <ConnectionForm
          key={mode.kind === "edit" ? mode.connection.id : "new"}
          connection={mode.kind === "edit" ? mode.connection : null}
          onDone={() => {
            setMode({ kind: "closed" });
            router.refresh();
          }}
          onCancel={connections.length > 0 ? () => setMode({ kind: "closed" }) : null}
        />
      )}
    </div>
  );
}

const STATE_TEXT = { ready: { tone: "good", text: "ready" }, missing: { tone: "bad", text: "missing" }, "not-configured": { tone: "warn", text: "not configured" } } as const;

/** What the benchmark's node types need from the workspace, each ready or not, after a test sign-in. */
function Readiness({ label, check }: { label: string; check: DifyConnectionTest }) {
  const lacking = check.readiness?.filter((line) => line.state !== "ready").length ?? 0;
  return (
    <section className={`${cardStyles} space-y-2`} aria-label={`Readiness of ${label}`} data-testid="dify-readiness">
      <h2 className="font-medium">Readiness of {label}</h2>
      {check.readiness === null ? (
        <p className="text-sm text-amber-700 dark:text-amber-400">The workspace&apos;s plugins and models could not be listed: {check.readinessError}</p>
      ) : (
        <>
          <p className="text-sm" data-testid="dify-readiness-summary">
            {lacking === 0
              ? "The workspace has every model provider, model and tool plugin the benchmark's node types need."
              : `The workspace lacks ${lacking} of the ${check.readiness.length} things the benchmark's node types need: the nodes using them fail when a workflow runs.`}
          </p>
          <div className={tableStyles.wrapper}>
            <table className={tableStyles.table}>
              <caption className="sr-only">What the benchmark&apos;s node types need from {label}</caption>
              <thead>
                <tr>
                  <th scope="col" className={tableStyles.th}>Needed</th>
                  <th scope="col" className={tableStyles.th}>By</th>
                  <th scope="col" className={tableStyles.th}>In the workspace</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {check.readiness.map((line) => (
                  <tr key={line.requirement} data-testid="dify-readiness-row" data-state={line.state}>
                    <td className={`${tableStyles.td} font-mono text-xs`}>{line.requirement}</td>
                    <td className={`${tableStyles.td} text-xs`}>{line.usedBy.join(", ")}</td>
                    <td className={tableStyles.td}>
                      <Badge tone={STATE_TEXT[line.state].tone}>{STATE_TEXT[line.state].text}</Badge> <span className="text-xs">{line.detail}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

/** Form fields whose validation errors come back under the schema's name. */
const ERROR_KEYS: Record<string, string> = { timeoutMinutes: "runTimeoutMs" };

function ConnectionForm({ connection, onDone, onCancel }: { connection: DifyConnectionView | null; onDone: () => void; onCancel: (() => void) | null }) {
  const formId = useId();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function submit(form: FormData) {
    setMessage(null);
    const minutesText = String(form.get("timeoutMinutes") ?? "").trim();
    const fields = {
      label: String(form.get("label") ?? ""),
      baseUrl: String(form.get("baseUrl") ?? ""),
      email: String(form.get("email") ?? ""),
      keepApps: form.get("keepApps") === "on",
      runTimeoutMs: Math.round((minutesText === "" ? 20 : Number(minutesText)) * 60_000),
      password: String(form.get("password") ?? ""),
    };
    startTransition(async () => {
      const result = connection ? await updateDifyConnectionAction({ ...fields, id: connection.id }) : await createDifyConnectionAction(fields);
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
    <form action={submit} className={`${cardStyles} space-y-4`} aria-label={connection ? `Edit ${connection.label}` : "Add a Dify connection"}>
      <h2 className="text-lg font-medium">{connection ? `Edit ${connection.label}` : "Add a Dify connection"}</h2>
      <div className="grid gap-4 sm:grid-cols-2">
        {field("label", "Name", { required: true, defaultValue: connection?.label ?? "", maxLength: 80 })}
        {field("baseUrl", "Dify origin", { required: true, defaultValue: connection?.baseUrl ?? "", placeholder: "http://localhost", type: "url" }, "The console API is reached at /console/api and the service API at /v1.")}
        {field("email", "Account email", { required: true, defaultValue: connection?.email ?? "", type: "email", autoComplete: "off" })}
        {field(
          "password",
          "Account password",
          { type: "password", autoComplete: "new-password", defaultValue: "", required: !connection, placeholder: connection?.hasPassword ? "leave empty to keep the stored password" : "" },
          connection?.hasPassword ? "A password is set. Type a new one to replace it." : "Stored encrypted; never shown again.",
        )}
        {field("timeoutMinutes", "Run timeout (minutes)", { type: "number", min: 1, max: 360, step: "1", defaultValue: connection ? minutes(connection.runTimeoutMs) : 20 }, "Per blocking workflow run; Dify's own limit is 20 minutes by default.")}
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="keepApps" defaultChecked={connection?.keepApps ?? false} /> Keep the apps created in Dify (default: delete them after their test cases ran)
      </label>
      <ManagedFormFooter message={message} pending={pending} submitLabel={connection ? "Save" : "Add connection"} onCancel={onCancel} />
    </form>
  );
}
