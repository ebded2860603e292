// The agreement figures of one report as a table: one row for all items, then per judge and per model.
import { tableStyles } from "@/components/ui/styles";
import { formatPercent } from "@/lib/format";
import type { AgreementRow, KappaView } from "@/lib/review/agreement-view";
import type { Proportion } from "@/lib/stats/common";

function Rate({ value }: { value: Proportion }) {
  return (
    <span title={`${value.num} of ${value.den}`}>
      {formatPercent(value.rate)} <span className="text-xs text-slate-500">({value.num}/{value.den})</span>
    </span>
  );
}

function KappaCell({ value }: { value: KappaView }) {
  return <span title={value.note}>{value.text}</span>;
}

const GROUP_LABELS: Record<AgreementRow["group"], string> = { all: "", judge: "Judge", model: "Model" };

export function AgreementTable({ rows, caption }: { rows: readonly AgreementRow[]; caption: string }) {
  return (
    <div className={tableStyles.wrapper}>
      <table className={tableStyles.table} data-testid="agreement-table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col" className={tableStyles.th}>Items</th>
            <th scope="col" className={tableStyles.th} title="Complete items: every vote the queue asks for. Items still missing votes are left out of every figure.">n (complete)</th>
            <th scope="col" className={tableStyles.th}>Votes</th>
            <th scope="col" className={tableStyles.th} title="Every annotator's verdict equals the judge's (the paper's strict unanimity)">
              Strict unanimity
            </th>
            <th scope="col" className={tableStyles.th} title="Every annotator confirmed the judge followed its prompt's rules">
              All say rules followed
            </th>
            <th scope="col" className={tableStyles.th} title="Annotator votes equal to the judge's verdict, over all votes">
              Raw agreement
            </th>
            <th scope="col" className={tableStyles.th} title="Cohen's kappa, judge vs the annotators' majority (ties left out)">
              κ judge vs majority
            </th>
            <th scope="col" className={tableStyles.th} title="Fleiss' kappa among annotators (items with two or more votes)">
              Fleiss&apos; κ
            </th>
            <th scope="col" className={tableStyles.th}>Ties</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((row) => (
            <tr key={row.key} data-testid={`agreement-row-${row.key}`}>
              <th scope="row" className={`${tableStyles.td} text-left font-medium`}>
                {row.group === "all" ? row.label : <><span className="text-xs font-normal text-slate-500">{GROUP_LABELS[row.group]}</span> {row.label}</>}
              </th>
              <td className={tableStyles.tdNumber} data-testid="complete-items">
                {row.items}
                {row.incomplete || row.unvoted ? (
                  <span className="block text-xs text-slate-500" data-testid="incomplete-items">
                    {row.incomplete ? `${row.incomplete} incomplete` : ""}
                    {row.incomplete && row.unvoted ? " · " : ""}
                    {row.unvoted ? `${row.unvoted} unvoted` : ""}, left out
                  </span>
                ) : null}
              </td>
              <td className={tableStyles.tdNumber}>{row.votes}</td>
              <td className={tableStyles.tdNumber} data-testid="strict">
                <Rate value={row.strict} />
              </td>
              <td className={tableStyles.tdNumber}>
                <Rate value={row.strictRules} />
              </td>
              <td className={tableStyles.tdNumber} data-testid="raw">
                <Rate value={row.raw} />
              </td>
              <td className={tableStyles.tdNumber}>
                <KappaCell value={row.judgeVsMajority} />
              </td>
              <td className={tableStyles.tdNumber}>
                <KappaCell value={row.annotators} />
              </td>
              <td className={tableStyles.tdNumber}>{row.ties}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Why a kappa is undefined, spelled out under the table for the "all items" row. */
export function KappaNotes({ row }: { row: AgreementRow }) {
  return (
    <ul className="mt-2 space-y-0.5 text-xs text-slate-600 dark:text-slate-400">
      <li>Cohen&apos;s κ (judge vs majority): {row.judgeVsMajority.value === null ? row.judgeVsMajority.note : `${row.judgeVsMajority.text}; ${row.judgeVsMajority.note}`}.</li>
      <li>
        Fleiss&apos; κ (annotators): {row.annotators.value === null ? row.annotators.note : `${row.annotators.text}; ${row.annotators.note}`}
        {row.annotators.value !== null && !row.fixedRaters ? " (items had different numbers of annotators: the generalised form)" : ""}.
      </li>
      <li>
        &ldquo;Did the judge follow its rules?&rdquo; answers: {row.rules.yes} yes, {row.rules.no} no, {row.rules.unsure} unsure
        {row.rules.unanswered ? `, ${row.rules.unanswered} not yet answered` : ""}.
      </li>
    </ul>
  );
}
