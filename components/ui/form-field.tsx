import type { InputHTMLAttributes } from "react";
import { inputStyles, labelStyles } from "./styles";

/** A labelled input with its validation error (announced via aria-describedby) or, without one, a hint. */
export function FormField({ formId, name, label, error, hint, ...input }: { formId: string; name: string; label: string; error?: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = `${formId}-${name}`;
  return (
    <div>
      <label htmlFor={id} className={labelStyles}>
        {label}
      </label>
      <input id={id} name={name} className={inputStyles} aria-invalid={error ? true : undefined} aria-describedby={error || hint ? `${id}-hint` : undefined} {...input} />
      {error || hint ? (
        <p id={`${id}-hint`} className={`mt-1 text-xs ${error ? "text-red-700 dark:text-red-400" : "text-slate-500"}`}>
          {error ?? hint}
        </p>
      ) : null}
    </div>
  );
}
