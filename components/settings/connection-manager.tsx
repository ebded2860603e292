"use client";

// The settings page of a kind of connection (model endpoints, Dify connections): a table with test, edit and delete
// per row and one form for adding or editing; the secret field is write-only. Each kind declares what differs.
import { useRouter } from "next/navigation";
import { Fragment, useId, useState, useTransition, type InputHTMLAttributes, type ReactNode } from "react";
import { DataTable } from "@/components/ui/data-table";
import { FormField } from "@/components/ui/form-field";
import { ManagedFormFooter, ManagedRowActions } from "@/components/ui/managed-list";
import { buttonStyles, cardStyles } from "@/components/ui/styles";
import type { ActionResult } from "@/lib/server/action";

/** Renders one input of the form: its name, label, input attributes and an optional hint. */
export type FieldRenderer = (name: string, label: string, props: InputHTMLAttributes<HTMLInputElement>, hint?: string) => ReactNode;

export interface ConnectionKind<View extends { id: string; label: string }, Test> {
  table: { caption: string; testId: string; rowTestId: string };
  /** The table's columns between the name (the label) and the actions. */
  columns: { header: string; className?: string; cell: (item: View) => ReactNode }[];
  /** Shown instead of the table when there is nothing yet. */
  empty: string;
  /** The add button's and form's title ("Add an endpoint") and the form's submit label ("Add endpoint"). */
  addTitle: string;
  addSubmit: string;
  test: {
    /** The test button's accessible name before the row's label ("Test connection to"). */
    name: string;
    running: string;
    statusTestId: string;
    run: (input: { id: string }) => Promise<ActionResult<Test>>;
    describe: (test: Test) => string;
  };
  remove: { confirm: (item: View) => string; run: (input: { id: string }) => Promise<ActionResult<null>> };
  form: {
    /** Form inputs whose validation errors come back under the schema's name. */
    errorKeys: Record<string, string>;
    fields: (field: FieldRenderer, item: View | null) => ReactNode;
    /** What goes below the grid of fields (checkboxes). */
    extra: (item: View | null) => ReactNode;
    /** Reads the form and calls the add or the save action. */
    save: (form: FormData, item: View | null) => Promise<ActionResult<unknown>>;
  };
  /** What a successful test shows below the table (the Dify workspace's readiness). */
  testDetails?: (item: View, test: Test) => ReactNode;
}

export function ConnectionManager<View extends { id: string; label: string }, Test>({ kind, items }: { kind: ConnectionKind<View, Test>; items: View[] }) {
  const router = useRouter();
  const [editing, setEditing] = useState<View | "new" | null>(items.length === 0 ? "new" : null);
  const [status, setStatus] = useState<Record<string, string>>({});
  const [tests, setTests] = useState<Record<string, Test>>({});
  const [pending, startTransition] = useTransition();
  const showStatus = (id: string, text: string) => setStatus((current) => ({ ...current, [id]: text }));

  function test(item: View) {
    showStatus(item.id, kind.test.running);
    startTransition(async () => {
      const result = await kind.test.run({ id: item.id });
      showStatus(item.id, result.ok ? kind.test.describe(result.value) : result.message);
      if (result.ok) setTests((current) => ({ ...current, [item.id]: result.value }));
    });
  }

  function remove(item: View) {
    if (!window.confirm(kind.remove.confirm(item))) return;
    startTransition(async () => {
      const result = await kind.remove.run({ id: item.id });
      if (!result.ok) showStatus(item.id, result.message);
      router.refresh();
    });
  }

  const { table } = kind;
  return (
    <div className="space-y-6">
      <DataTable
        caption={table.caption}
        testId={table.testId}
        rowTestId={table.rowTestId}
        headers={["Name", ...kind.columns.map((column) => column.header), "Actions"]}
        columnClasses={["font-medium", ...kind.columns.map((column) => column.className)]}
        empty={<p className="text-sm text-slate-600 dark:text-slate-400">{kind.empty}</p>}
        rows={items.map((item) => ({
          key: item.id,
          data: { label: item.label },
          cells: [
            item.label,
            ...kind.columns.map((column) => column.cell(item)),
            <ManagedRowActions
              key="actions"
              label={item.label}
              testName={kind.test.name}
              pending={pending}
              status={status[item.id]}
              statusTestId={kind.test.statusTestId}
              onTest={() => test(item)}
              onEdit={() => setEditing(item)}
              onDelete={() => remove(item)}
            />,
          ],
        }))}
      />
      {kind.testDetails
        ? items.map((item) => {
            const outcome = tests[item.id];
            return outcome === undefined ? null : <Fragment key={item.id}>{kind.testDetails!(item, outcome)}</Fragment>;
          })
        : null}
      {editing === null ? (
        <button type="button" className={buttonStyles.primary} onClick={() => setEditing("new")}>
          {kind.addTitle}
        </button>
      ) : (
        <ConnectionForm
          key={editing === "new" ? "new" : editing.id}
          kind={kind}
          item={editing === "new" ? null : editing}
          onDone={() => {
            setEditing(null);
            router.refresh();
          }}
          onCancel={items.length > 0 ? () => setEditing(null) : null}
        />
      )}
    </div>
  );
}

function ConnectionForm<View extends { id: string; label: string }, Test>({
  kind,
  item,
  onDone,
  onCancel,
}: {
  kind: ConnectionKind<View, Test>;
  item: View | null;
  onDone: () => void;
  onCancel: (() => void) | null;
}) {
  const formId = useId();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function submit(form: FormData) {
    setMessage(null);
    startTransition(async () => {
      const result = await kind.form.save(form, item);
      if (result.ok) {
        onDone();
        return;
      }
      setErrors(result.fieldErrors ?? {});
      setMessage(result.message);
    });
  }

  const field: FieldRenderer = (name, label, props, hint) => (
    <FormField formId={formId} name={name} label={label} error={errors[kind.form.errorKeys[name] ?? name]} {...(hint ? { hint } : {})} {...props} />
  );
  const title = item ? `Edit ${item.label}` : kind.addTitle;

  return (
    <form action={submit} className={`${cardStyles} space-y-4`} aria-label={title}>
      <h2 className="text-lg font-medium">{title}</h2>
      <div className="grid gap-4 sm:grid-cols-2">{kind.form.fields(field, item)}</div>
      {kind.form.extra(item)}
      <ManagedFormFooter message={message} pending={pending} submitLabel={item ? "Save" : kind.addSubmit} onCancel={onCancel} />
    </form>
  );
}
