"use client";

import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { setCozeGithubTokenAction } from "@/app/actions/settings";
import { FormField } from "@/components/ui/form-field";
import { ManagedFormFooter } from "@/components/ui/managed-list";
import { buttonStyles, cardStyles } from "@/components/ui/styles";
import type { CozeTokenState } from "@/lib/server/data/settings";

/** Sets or clears the token; the field is write-only, the stored value shows only as its last four characters. */
export function CozeTokenForm({ state }: { state: CozeTokenState }) {
  const router = useRouter();
  const formId = useId();
  const [message, setMessage] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function save(token: string) {
    setMessage(null);
    startTransition(async () => {
      const result = await setCozeGithubTokenAction({ token });
      if (!result.ok) setMessage(result.message);
      router.refresh();
    });
  }

  return (
    <form action={(form) => save(String(form.get("token") ?? ""))} className={`${cardStyles} max-w-xl space-y-4`} aria-label="GitHub token for Coze packages">
      <p className="text-sm" role="status">
        {state.configured ? `A token is set${state.hint ? ` (ends in ${state.hint})` : ""}.` : "No token is set: HTTP nodes carry EMPTY."}
      </p>
      <FormField formId={formId} name="token" label="GitHub token" type="password" autoComplete="off" required maxLength={500} hint="Stored encrypted; never shown again." />
      <ManagedFormFooter message={message} pending={pending} submitLabel={state.configured ? "Replace token" : "Save token"} onCancel={null} />
      {state.configured ? (
        <button type="button" className={buttonStyles.ghostDanger} disabled={pending} onClick={() => save("")}>
          Remove the token
        </button>
      ) : null}
    </form>
  );
}
