"use client";

import { createDifyConnectionAction, deleteDifyConnectionAction, testDifyConnectionAction, updateDifyConnectionAction } from "@/app/actions/dify-connections";
import { Badge } from "@/components/ui/badge";
import { ConnectionManager, type ConnectionKind } from "@/components/settings/connection-manager";
import { DataTable } from "@/components/ui/data-table";
import { cardStyles } from "@/components/ui/styles";
import type { DifyConnectionTest, DifyConnectionView } from "@/lib/server/dify-connections/connections";

const minutes = (ms: number) => Math.round(ms / 60_000);

const DIFY_CONNECTIONS: ConnectionKind<DifyConnectionView, DifyConnectionTest> = {
  table: { caption: "Dify connections", testId: "dify-connections", rowTestId: "dify-connection-row" },
  columns: [
    { header: "Origin", className: "font-mono text-xs", cell: (connection) => connection.baseUrl },
    { header: "Account", className: "text-xs", cell: (connection) => connection.email },
    { header: "Password", cell: (connection) => (connection.hasPassword ? <Badge tone="good">set</Badge> : <Badge>not set</Badge>) },
    {
      header: "Runs",
      className: "text-xs",
      cell: (connection) => (
        <>
          {minutes(connection.runTimeoutMs)} min timeout · {connection.keepApps ? "apps kept" : "apps deleted afterwards"}
        </>
      ),
    },
  ],
  empty: "No Dify connection yet. Add one to execute generated workflows and their test cases.",
  addTitle: "Add a Dify connection",
  addSubmit: "Add connection",
  test: {
    name: "Test sign-in to",
    running: "Signing in…",
    statusTestId: "dify-test-status",
    run: testDifyConnectionAction,
    describe: (outcome) => `${outcome.ok ? "Connected" : "Failed"}: ${outcome.message}`,
  },
  remove: {
    confirm: (connection) => `Delete the Dify connection “${connection.label}”? Results already recorded stay; executions still using it will fail.`,
    run: deleteDifyConnectionAction,
  },
  form: {
    errorKeys: { timeoutMinutes: "runTimeoutMs" },
    fields: (field, connection) => (
      <>
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
      </>
    ),
    extra: (connection) => (
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="keepApps" defaultChecked={connection?.keepApps ?? false} /> Keep the apps created in Dify (default: delete them after their test cases ran)
      </label>
    ),
    save: (form, connection) => {
      const minutesText = String(form.get("timeoutMinutes") ?? "").trim();
      const fields = {
        label: String(form.get("label") ?? ""),
        baseUrl: String(form.get("baseUrl") ?? ""),
        email: String(form.get("email") ?? ""),
        keepApps: form.get("keepApps") === "on",
        runTimeoutMs: Math.round((minutesText === "" ? 20 : Number(minutesText)) * 60_000),
        password: String(form.get("password") ?? ""),
      };
      return connection ? updateDifyConnectionAction({ ...fields, id: connection.id }) : createDifyConnectionAction(fields);
    },
  },
  testDetails: (connection, check) => (check.ok ? <Readiness label={connection.label} check={check} /> : null),
};

/** Lists Dify connections with test (sign in), edit and delete, and one form for adding or editing. */
export function DifyConnectionManager({ connections }: { connections: DifyConnectionView[] }) {
  return <ConnectionManager kind={DIFY_CONNECTIONS} items={connections} />;
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
          <DataTable
            caption={`What the benchmark's node types need from ${label}`}
            headers={["Needed", "By", "In the workspace"]}
            columnClasses={["font-mono text-xs", "text-xs"]}
            rowTestId="dify-readiness-row"
            rows={check.readiness.map((line) => ({
              key: line.requirement,
              data: { state: line.state },
              cells: [
                line.requirement,
                line.usedBy.join(", "),
                <>
                  <Badge tone={STATE_TEXT[line.state].tone}>{STATE_TEXT[line.state].text}</Badge> <span className="text-xs">{line.detail}</span>
                </>,
              ],
            }))}
          />
        </>
      )}
    </section>
  );
}
