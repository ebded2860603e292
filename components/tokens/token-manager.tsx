"use client";

import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { createTokenAction, revokeTokenAction } from "@/app/actions/tokens";
import { Badge } from "@/components/ui/badge";
import { FormField } from "@/components/ui/form-field";
import { ManagedFormFooter } from "@/components/ui/managed-list";
import { DataTable } from "@/components/ui/data-table";
import { buttonStyles, cardStyles, inputStyles } from "@/components/ui/styles";
import { formatDateTime } from "@/lib/format";
import type { ApiTokenView } from "@/lib/server/tokens";

const STATE_TONES = { active: "good", expired: "warn", revoked: "neutral" } as const;

/** Lists access tokens with revoke, and a form that makes a new one and shows it this once. */
export function TokenManager({ tokens, showOwners }: { tokens: ApiTokenView[]; showOwners: boolean }) {
  const router = useRouter();
  const formId = useId();
  const [created, setCreated] = useState<{ token: string; name: string } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function create(form: FormData) {
    setMessage(null);
    setCreated(null);
    const days = String(form.get("expiresDays") ?? "").trim();
    const input = { name: String(form.get("name") ?? ""), ...(days ? { expiresDays: Number(days) } : {}) };
    startTransition(async () => {
      const result = await createTokenAction(input);
      if (!result.ok) {
        setErrors(result.fieldErrors ?? {});
        setMessage(result.message);
        return;
      }
      setErrors({});
      setCreated({ token: result.value.token, name: result.value.view.name });
      router.refresh();
    });
  }

  function revoke(token: ApiTokenView) {
    if (!window.confirm(`Revoke the token “${token.name}”? Clients using it get 401 from now on.`)) return;
    startTransition(async () => {
      const result = await revokeTokenAction({ id: token.id });
      setStatus(result.ok ? `Revoked “${token.name}”.` : result.message);
      router.refresh();
    });
  }

  return (
    <div className="space-y-6">
      {created ? (
        <section className={`${cardStyles} space-y-2 border-emerald-300 dark:border-emerald-800`} aria-labelledby={`${formId}-created`} data-testid="new-token">
          <h2 id={`${formId}-created`} className="text-lg font-medium">
            Your new token “{created.name}”
          </h2>
          <p className="text-sm">Copy it now: it is not shown again. Anyone holding it acts as you.</p>
          <label htmlFor={`${formId}-token`} className="sr-only">
            The new token
          </label>
          <input id={`${formId}-token`} readOnly value={created.token} className={`${inputStyles} font-mono`} onFocus={(event) => event.currentTarget.select()} />
          <button type="button" className={buttonStyles.secondary} onClick={() => void navigator.clipboard?.writeText(created.token)}>
            Copy
          </button>
        </section>
      ) : null}
      {status ? (
        <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
          {status}
        </p>
      ) : null}
      <DataTable
        caption="Access tokens"
        empty={<p className="text-sm text-slate-600 dark:text-slate-400">No tokens yet. Make one below to call the API from a script or CI.</p>}
        testId="tokens"
        rowTestId="token-row"
        headers={["Name", ...(showOwners ? ["Owner"] : []), "Token", "Created", "Expires", "Last used", "State", "Actions"]}
        columnClasses={["font-medium", ...(showOwners ? ["text-xs"] : []), "font-mono text-xs", "text-xs", "text-xs", "text-xs"]}
        rows={tokens.map((token) => ({
          key: token.id,
          data: { name: token.name, state: token.state },
          cells: [
            token.name,
            ...(showOwners ? [token.userEmail] : []),
            token.hint,
            formatDateTime(token.createdAt),
            token.expiresAt ? formatDateTime(token.expiresAt) : "never",
            token.lastUsedAt ? formatDateTime(token.lastUsedAt) : "never",
            <Badge key="state" tone={STATE_TONES[token.state]}>{token.state}</Badge>,
            token.state === "active" ? (
              <button key="revoke" type="button" className={buttonStyles.ghostDanger} onClick={() => revoke(token)} disabled={pending} aria-label={`Revoke ${token.name}`}>
                Revoke
              </button>
            ) : null,
          ],
        }))}
      />
      <form action={create} className={`${cardStyles} space-y-4`} aria-label="New access token">
        <h2 className="text-lg font-medium">New access token</h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField formId={formId} name="name" label="Name" required maxLength={100} placeholder="training-script" error={errors.name} hint="What uses it, so you know which to revoke." />
          <FormField formId={formId} name="expiresDays" label="Expires after (days)" type="number" min={1} max={3650} error={errors.expiresDays} hint="Empty: never expires." />
        </div>
        <ManagedFormFooter message={message} pending={pending} submitLabel="Create token" onCancel={null} />
      </form>
    </div>
  );
}
