import Link from "next/link";

export interface EndpointOption {
  id: string;
  label: string;
  model: string;
}

/** One <option> per model endpoint, "label (model)". */
export function EndpointOptions({ endpoints }: { endpoints: readonly EndpointOption[] }) {
  return (
    <>
      {endpoints.map((endpoint) => (
        <option key={endpoint.id} value={endpoint.id}>
          {endpoint.label} ({endpoint.model})
        </option>
      ))}
    </>
  );
}

export interface StartMessage {
  ok: boolean;
  text: string;
  jobId?: string;
}

/** What starting a job answered: a status with a link to follow the job, or an alert saying why it did not start. */
export function StartOutcome({ message }: { message: StartMessage | null }) {
  if (!message) return null;
  return (
    <p role={message.ok ? "status" : "alert"} className={`text-sm ${message.ok ? "text-slate-700 dark:text-slate-300" : "text-red-700 dark:text-red-400"}`}>
      {message.text}{" "}
      {message.jobId ? (
        <Link href={`/jobs/${message.jobId}`} className="text-brand-700 underline underline-offset-2 dark:text-brand-300">Follow the job</Link>
      ) : null}
    </p>
  );
}
