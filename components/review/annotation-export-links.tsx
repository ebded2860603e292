import { annotationExportHref } from "@/lib/review/export";
import { linkClass } from "./styles";

/** "Export …: CSV · JSON" links to one queue's annotations. */
export function QueueExportLinks({ queueId, label }: { queueId: string; label: string }) {
  return (
    <>
      {label}:{" "}
      <a href={annotationExportHref("csv", queueId)} className={linkClass}>
        CSV
      </a>{" "}
      ·{" "}
      <a href={annotationExportHref("json", queueId)} className={linkClass}>
        JSON
      </a>
    </>
  );
}
