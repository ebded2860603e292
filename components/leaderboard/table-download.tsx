"use client";

import { downloadText } from "@/components/ui/download";
import { buttonStyles } from "@/components/ui/styles";
import { exportFileName, MIME_TYPES, render, type ExportFormat } from "@/lib/leaderboard/export";
import { EXPORT_TABLES, type ExportTableName, type RowOf } from "@/lib/leaderboard/tables";

/** CSV and JSON buttons for a table the page shows; the columns are the same as the CLI's for that table. */
export function TableDownload<Name extends ExportTableName>({ table, rows, name, label }: { table: Name; rows: RowOf<Name>[]; name: string[]; label: string }) {
  const save = (format: ExportFormat) => {
    const columns = EXPORT_TABLES[table] as unknown as Parameters<typeof render<RowOf<Name>>>[0];
    downloadText(exportFileName(name, format), render(columns, rows, format), MIME_TYPES[format]);
  };
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" role="group" aria-label={`Download ${label}`}>
      <span className="text-slate-500">Download</span>
      <button type="button" className={buttonStyles.secondary} onClick={() => save("csv")} aria-label={`Download ${label} as CSV`}>
        CSV
      </button>
      <button type="button" className={buttonStyles.secondary} onClick={() => save("json")} aria-label={`Download ${label} as JSON`}>
        JSON
      </button>
    </div>
  );
}
