"use client";

// The Users page: invite an account (a temporary password shown once), change roles, reset passwords, disable.
import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { inviteUserAction, resetUserPasswordAction, setUserDisabledAction, setUserRoleAction } from "@/app/actions/users";
import { FormField } from "@/components/ui/form-field";
import { buttonStyles, cardStyles, inputStyles, labelStyles, tableStyles } from "@/components/ui/styles";
import { ROLE_LABELS, ROLES, type Role } from "@/lib/auth/roles";

export interface UserRowView {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  disabled: boolean;
  createdAt: string;
}

type Notice = { kind: "secret"; email: string; password: string; what: string } | { kind: "done"; text: string } | { kind: "error"; text: string };

function NoticeBox({ notice }: { notice: Notice | null }) {
  if (!notice) return null;
  if (notice.kind === "error") {
    return (
      <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/40 dark:text-red-200">
        {notice.text}
      </p>
    );
  }
  if (notice.kind === "done") {
    return (
      <p role="status" className="rounded-md border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950/40 dark:text-emerald-100">
        {notice.text}
      </p>
    );
  }
  return (
    <div role="status" data-testid="temporary-password" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100">
      <p>
        {notice.what} <strong>{notice.email}</strong>. Their temporary password, shown only now:
      </p>
      <p className="mt-1 select-all font-mono text-base">{notice.password}</p>
      <p className="mt-1">Hand it over privately; they can change it with the command-line tool or ask you for a new one.</p>
    </div>
  );
}

export function UserManager({ users, selfId }: { users: UserRowView[]; selfId: string }) {
  const router = useRouter();
  const formId = useId();
  const [notice, setNotice] = useState<Notice | null>(null);
  const [pending, startTransition] = useTransition();

  const run = (work: () => Promise<Notice>) => {
    setNotice(null);
    startTransition(async () => {
      setNotice(await work());
      router.refresh();
    });
  };

  const invite = (form: FormData) =>
    run(async () => {
      const result = await inviteUserAction({ email: String(form.get("email") ?? ""), name: String(form.get("name") ?? ""), role: String(form.get("role") ?? "viewer") as Role });
      return result.ok ? { kind: "secret", email: result.value.email, password: result.value.temporaryPassword, what: "Created" } : { kind: "error", text: result.fieldErrors ? `${result.message} ${Object.entries(result.fieldErrors).map(([field, message]) => `${field}: ${message}`).join("; ")}` : result.message };
    });

  return (
    <div className="space-y-6">
      <NoticeBox notice={notice} />
      <form action={invite} className={`${cardStyles} grid gap-3 sm:grid-cols-[2fr_2fr_1fr_auto] sm:items-end`} aria-label="Invite a user">
        <FormField formId={formId} name="email" label="Email" type="email" required autoComplete="off" />
        <FormField formId={formId} name="name" label="Name (optional)" autoComplete="off" maxLength={100} />
        <div>
          <label htmlFor={`${formId}-role`} className={labelStyles}>
            Role
          </label>
          <select id={`${formId}-role`} name="role" defaultValue="viewer" className={inputStyles}>
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={buttonStyles.primary} disabled={pending}>
          Invite
        </button>
      </form>
      <div className={tableStyles.wrapper}>
        <table className={tableStyles.table}>
          <caption className="sr-only">Accounts, their roles and state</caption>
          <thead>
            <tr>
              <th scope="col" className={tableStyles.th}>Account</th>
              <th scope="col" className={tableStyles.th}>Role</th>
              <th scope="col" className={tableStyles.th}>State</th>
              <th scope="col" className={tableStyles.th}>Actions</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
            {users.map((user) => (
              <tr key={user.id} data-testid="user-row" data-email={user.email}>
                <td className={tableStyles.td}>
                  <span className="font-medium">{user.email}</span>
                  {user.name ? <span className="block text-xs text-slate-600 dark:text-slate-400">{user.name}</span> : null}
                  {user.id === selfId ? <span className="block text-xs text-slate-600 dark:text-slate-400">you</span> : null}
                </td>
                <td className={tableStyles.td}>
                  <label className="sr-only" htmlFor={`${formId}-role-${user.id}`}>
                    Role of {user.email}
                  </label>
                  <select
                    id={`${formId}-role-${user.id}`}
                    value={user.role}
                    disabled={pending}
                    onChange={(event) => {
                      const role = event.target.value as Role;
                      run(async () => {
                        const result = await setUserRoleAction({ userId: user.id, role });
                        return result.ok ? { kind: "done", text: `${user.email} is now ${ROLE_LABELS[role]}; their sessions were ended.` } : { kind: "error", text: result.message };
                      });
                    }}
                    className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-600 dark:bg-slate-900"
                  >
                    {ROLES.map((role) => (
                      <option key={role} value={role}>
                        {ROLE_LABELS[role]}
                      </option>
                    ))}
                  </select>
                </td>
                <td className={tableStyles.td}>{user.disabled ? <span className="font-medium text-red-700 dark:text-red-400">Disabled</span> : "Active"}</td>
                <td className={`${tableStyles.td} space-x-2`}>
                  <button
                    type="button"
                    className={buttonStyles.secondary}
                    disabled={pending}
                    aria-label={`Reset password of ${user.email}`}
                    onClick={() =>
                      run(async () => {
                        const result = await resetUserPasswordAction({ userId: user.id });
                        return result.ok ? { kind: "secret", email: result.value.email, password: result.value.temporaryPassword, what: "New password for" } : { kind: "error", text: result.message };
                      })
                    }
                  >
                    Reset password
                  </button>
                  {user.id === selfId ? null : (
                    <button
                      type="button"
                      className={user.disabled ? buttonStyles.secondary : buttonStyles.ghostDanger}
                      disabled={pending}
                      aria-label={`${user.disabled ? "Enable" : "Disable"} ${user.email}`}
                      onClick={() =>
                        run(async () => {
                          const result = await setUserDisabledAction({ userId: user.id, disabled: !user.disabled });
                          return result.ok ? { kind: "done", text: `${user.email} is ${user.disabled ? "enabled" : "disabled"}.` } : { kind: "error", text: result.message };
                        })
                      }
                    >
                      {user.disabled ? "Enable" : "Disable"}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
