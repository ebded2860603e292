import { buttonStyles } from "./styles";

/** A settings row's Test / Edit / Delete buttons (named after the row for screen readers) and the test's outcome. */
export function ManagedRowActions(props: {
  label: string;
  testName: string;
  pending: boolean;
  status: string | undefined;
  statusTestId: string;
  onTest: () => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <>
      <div className="flex gap-2">
        <button type="button" className={buttonStyles.secondary} onClick={props.onTest} disabled={props.pending} aria-label={`${props.testName} ${props.label}`}>
          Test
        </button>
        <button type="button" className={buttonStyles.secondary} onClick={props.onEdit} aria-label={`Edit ${props.label}`}>
          Edit
        </button>
        <button type="button" className={buttonStyles.ghostDanger} onClick={props.onDelete} disabled={props.pending} aria-label={`Delete ${props.label}`}>
          Delete
        </button>
      </div>
      {props.status ? (
        <p role="status" className="mt-1 max-w-sm whitespace-pre-line text-xs text-slate-600 dark:text-slate-400" data-testid={props.statusTestId}>
          {props.status}
        </p>
      ) : null}
    </>
  );
}

/** A settings form's error message, submit and (when there is something to go back to) cancel buttons. */
export function ManagedFormFooter({ message, pending, submitLabel, onCancel }: { message: string | null; pending: boolean; submitLabel: string; onCancel: (() => void) | null }) {
  return (
    <>
      {message ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {message}
        </p>
      ) : null}
      <div className="flex gap-2">
        <button type="submit" className={buttonStyles.primary} disabled={pending}>
          {submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className={buttonStyles.secondary} onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </>
  );
}
