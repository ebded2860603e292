"use client";
// The diff pages' interactive part: the graphs (synced pair or merged), the change list with counts and previous /
// next (n / p), the selected change's details with field text diffs, and the regressions (new diagnostics, checks
// that passed before and fail now). Everything arrives computed on the server (lib/diff-view/comparison).
import Link from "next/link";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { buttonStyles, cardStyles, tableStyles } from "@/components/ui/styles";
import { DiagnosticList } from "@/components/viewer/diagnostic-list";
import { layoutMerged, type Comparison, type ComparisonSide } from "@/lib/diff-view/comparison";
import { changeShortcut, stepChange } from "@/lib/diff-view/navigation";
import { counterpartKeys, firstChangeAt } from "@/lib/diff-view/targets";
import { stepText } from "@/lib/diff-view/verdicts";
import type { ViewDiagnostic } from "@/lib/viewer/model";
import { nodeAnchorOf } from "@/lib/viewer/model";
import { DIAGNOSTIC_CATEGORIES, type DiagnosticCategory } from "@/lib/workflow/diagnostics";
import { ChangeDetail, type SideLabels } from "./change-detail";
import { ChangeCounts, ChangeList } from "./change-list";
import { DiffCanvases, type CanvasLayout, type CanvasName, type DiffCanvasesHandle } from "./diff-canvases";
import { SideBySideHead } from "./verdict-table";

export interface DiffWorkbenchProps {
  comparison: Comparison;
  /** How the two sides are named: "Round 1" / "Round 2", or "A · model" / "B · model". */
  labels: SideLabels;
  mode: "turns" | "models";
  /** The response pages of the two sides. */
  responseHrefs: { before: string | null; after: string | null };
}

const NO_CATEGORIES: readonly DiagnosticCategory[] = [];
const NO_SELECTION: Readonly<Record<CanvasName, string | null>> = { before: null, after: null, merged: null };

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/** Text diagnostics link to marks on the response page, not here: list them without the in-page anchor. */
function listable(diagnostics: readonly ViewDiagnostic[]): ViewDiagnostic[] {
  return diagnostics.map((diagnostic) => (diagnostic.textField === null ? diagnostic : { ...diagnostic, textField: null }));
}

function emptyText(side: ComparisonSide): string {
  if (side.graph === "none" && !side.parses) return "The workflow JSON does not parse and no mechanical repair makes it parse, so there is nothing to draw; the diff treats this side as having no workflow.";
  return "The workflow has no nodes to draw.";
}

function SideProblems({ side, label, href }: { side: ComparisonSide; label: string; href: string | null }) {
  if (side.parses && side.issues.length === 0) return null;
  return (
    <div className="rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950/40" data-testid="side-problems">
      {!side.parses ? (
        <>
          <p className="font-semibold text-amber-950 dark:text-amber-100">
            {label}: the workflow JSON does not parse
            {side.graph === "repaired" ? " — the diff uses its mechanical repair" : side.graph === "none" ? " — the diff treats it as no workflow" : ""}.
          </p>
          <ul className="mt-1 list-disc pl-5 text-amber-950 dark:text-amber-100" data-testid="format-problems">
            {side.formatProblems.map((problem, i) => (
              <li key={i}>
                {problem.line !== null ? (
                  <span className="font-mono text-xs">
                    line {problem.line}, column {problem.column ?? 1}:{" "}
                  </span>
                ) : null}
                {problem.message}
                {problem.hint ? <span className="block text-xs">Fix: {problem.hint}</span> : null}
              </li>
            ))}
          </ul>
          {side.repairs.length > 0 ? <p className="mt-1 text-xs text-amber-900 dark:text-amber-200">Repairs applied for the drawing: {side.repairs.join(" ")}</p> : null}
          {href ? (
            <Link href={href} className="mt-1 inline-block text-xs font-medium text-brand-600 hover:underline dark:text-brand-500">
              See the text around the error on the response page →
            </Link>
          ) : null}
        </>
      ) : null}
      {side.issues.length > 0 ? (
        <>
          <p className="font-semibold text-amber-950 dark:text-amber-100">{label}: parts the diff could not read</p>
          <ul className="mt-1 list-disc pl-5 text-amber-950 dark:text-amber-100">
            {side.issues.map((issue, i) => (
              <li key={i}>{issue.message}</li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

function checkText(value: boolean | null): string {
  return value === null ? "—" : value ? "pass" : "fail";
}

function Regressions({
  comparison,
  labels,
  mode,
  onFocusDiagnostic,
}: {
  comparison: Comparison;
  labels: SideLabels;
  mode: DiffWorkbenchProps["mode"];
  onFocusDiagnostic: (canvas: "before" | "after", diagnostic: ViewDiagnostic) => void;
}) {
  const { regressions, before, after } = comparison;
  const fresh = useMemo(() => listable(regressions.newDiagnosticIds.map((id) => after.diagnostics[id]).filter((d): d is ViewDiagnostic => Boolean(d))), [regressions, after]);
  const gone = useMemo(() => listable(regressions.resolvedDiagnosticIds.map((id) => before.diagnostics[id]).filter((d): d is ViewDiagnostic => Boolean(d))), [regressions, before]);
  const regressed = regressions.checks.filter((check) => check.regressed);
  const fixed = regressions.checks.filter((check) => check.fixed);
  const worse = mode === "turns" ? `Regressions from ${labels.before} to ${labels.after}` : `Where ${labels.after} does worse than ${labels.before}`;
  return (
    <section aria-labelledby="regressions-title" className="space-y-3" data-testid="regressions">
      <h2 id="regressions-title" className="text-lg font-semibold">
        {worse}
      </h2>
      <p className="text-sm" data-testid="regression-summary">
        {regressed.length === 0 ? (
          <Badge tone="good">no check regressed</Badge>
        ) : (
          <Badge tone="bad">
            {regressed.length} check{regressed.length === 1 ? "" : "s"} regressed
          </Badge>
        )}{" "}
        {fixed.length > 0 ? <Badge tone="good">{fixed.length} fixed</Badge> : null}{" "}
        <Badge tone={fresh.length > 0 ? "bad" : "neutral"}>
          {fresh.length} new diagnostic{fresh.length === 1 ? "" : "s"}
        </Badge>{" "}
        <Badge tone={gone.length > 0 ? "good" : "neutral"}>{gone.length} gone</Badge>
      </p>
      <div className={tableStyles.wrapper}>
        <table className={tableStyles.table} data-testid="regression-checks">
          <caption className="sr-only">Checks on both sides</caption>
          <SideBySideHead before={labels.before} after={labels.after} last="Change" />
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {regressions.checks.map((check) => (
              <tr key={check.check} data-testid="regression-check" data-check={check.check} data-regressed={check.regressed ? "true" : "false"} className={check.regressed ? "bg-red-50/70 dark:bg-red-950/30" : ""}>
                <th scope="row" className="px-3 py-1.5 text-left text-sm font-normal">
                  {check.label}
                </th>
                <td className={tableStyles.td}>{checkText(check.before)}</td>
                <td className={tableStyles.td}>{checkText(check.after)}</td>
                <td className={tableStyles.td}>{check.regressed ? <Badge tone="bad">passed before, fails now</Badge> : check.fixed ? <Badge tone="good">fixed</Badge> : <span className="text-xs text-slate-500">same</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <div className={cardStyles} data-testid="new-diagnostics">
          <h3 className="mb-1 text-sm font-semibold">
            {mode === "turns" ? `New in ${labels.after}` : `Only in ${labels.after}`} <span className="font-normal text-slate-500">({fresh.length})</span>
          </h3>
          <DiagnosticList
            diagnostics={fresh}
            label={`Diagnostics new in ${labels.after}`}
            focusable={(d) => nodeAnchorOf(after.view ?? { edges: [] }, d) !== null && after.graph === "original"}
            onFocus={(d) => onFocusDiagnostic("after", d)}
            emptyText="None."
          />
        </div>
        <div className={cardStyles} data-testid="resolved-diagnostics">
          <h3 className="mb-1 text-sm font-semibold">
            {mode === "turns" ? `Gone since ${labels.before}` : `Only in ${labels.before}`} <span className="font-normal text-slate-500">({gone.length})</span>
          </h3>
          <DiagnosticList
            diagnostics={gone}
            label={`Diagnostics of ${labels.before} that are gone`}
            focusable={(d) => nodeAnchorOf(before.view ?? { edges: [] }, d) !== null && before.graph === "original"}
            onFocus={(d) => onFocusDiagnostic("before", d)}
            emptyText="None."
          />
        </div>
      </div>
      <details className={cardStyles}>
        <summary className="cursor-pointer text-sm font-medium">
          All diagnostics ({labels.before}: {before.diagnostics.length}, {labels.after}: {after.diagnostics.length})
        </summary>
        <div className="mt-2 grid gap-4 lg:grid-cols-2">
          {(["before", "after"] as const).map((canvas) => {
            const side = comparison[canvas];
            return (
              <div key={canvas}>
                <h3 className="mb-1 text-sm font-semibold">
                  {labels[canvas]} · {side.verdict.failStep ? `fails at ${stepText(side.verdict.failStep)}` : "passes"}
                </h3>
                <DiagnosticList
                  diagnostics={listable(side.diagnostics)}
                  label={`Diagnostics of ${labels[canvas]}`}
                  focusable={(d) => nodeAnchorOf(side.view ?? { edges: [] }, d) !== null && side.graph === "original"}
                  onFocus={(d) => onFocusDiagnostic(canvas, d)}
                />
              </div>
            );
          })}
        </div>
      </details>
    </section>
  );
}

export function DiffWorkbench({ comparison, labels, mode, responseHrefs }: DiffWorkbenchProps) {
  const { diff, targets } = comparison;
  const [layout, setLayout] = useState<CanvasLayout>(comparison.suggestedLayout);
  const [sync, setSync] = useState(true);
  const [showDiagnostics, setShowDiagnostics] = useState(true);
  const [current, setCurrent] = useState<number | null>(null);
  const [selected, setSelected] = useState<Readonly<Record<CanvasName, string | null>>>(NO_SELECTION);
  const canvases = useRef<DiffCanvasesHandle>(null);
  const counterparts = useMemo(() => counterpartKeys(diff), [diff]);
  // The merged graph is laid out here, the first time it is shown (the server skips a layout the page may not need).
  const [mergedWanted, setMergedWanted] = useState(false);
  const chooseLayout = useCallback((next: CanvasLayout) => {
    if (next === "merged") setMergedWanted(true);
    setLayout(next);
  }, []);
  const merged = useMemo(() => (mergedWanted ? layoutMerged(comparison) : null), [mergedWanted, comparison]);

  const choose = useCallback(
    (index: number | null) => {
      if (index === null) return;
      const target = targets[index];
      setCurrent(index);
      if (!target) return;
      setSelected({ before: target.before.nodeKey, after: target.after.nodeKey, merged: target.merged.nodeKey });
      canvases.current?.focus(target);
    },
    [targets],
  );

  const step = useCallback((delta: -1 | 1) => choose(stepChange(diff.changes.length, current, delta)), [choose, diff.changes.length, current]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      const delta = changeShortcut(event.key);
      if (delta === null) return;
      event.preventDefault();
      step(delta);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [step]);

  const onSelect = useCallback(
    (canvas: CanvasName, key: string | null) => {
      if (key === null) {
        setSelected(NO_SELECTION);
        return;
      }
      const other = canvas === "before" ? counterparts.toAfter[key] : canvas === "after" ? counterparts.toBefore[key] : undefined;
      const next: Record<CanvasName, string | null> = { before: null, after: null, merged: null };
      next[canvas] = key;
      if (canvas === "before") next.after = other ?? null;
      if (canvas === "after") next.before = other ?? null;
      setSelected(next);
      const index = firstChangeAt(targets, canvas, key);
      if (index !== null) setCurrent(index);
      // The clicked canvas stays put; the other one brings the counterpart into view.
      if (other) canvases.current?.focusOn(canvas === "before" ? "after" : "before", other);
    },
    [counterparts, targets],
  );

  const focusDiagnostic = useCallback(
    (canvas: "before" | "after", diagnostic: ViewDiagnostic) => {
      const view = comparison[canvas].view;
      const key = view ? nodeAnchorOf(view, diagnostic) : null;
      if (key === null) return;
      if (layout === "merged") {
        // The later workflow keeps its keys on the merged canvas; earlier nodes are mapped.
        const mergedKey = canvas === "after" ? key : (comparison.merged?.fromBefore[key] ?? null);
        if (mergedKey === null) return;
        onSelect("merged", mergedKey);
        canvases.current?.focusOn("merged", mergedKey);
        return;
      }
      onSelect(canvas, key);
      canvases.current?.focusOn(canvas, key);
    },
    [comparison, layout, onSelect],
  );

  const change = current === null ? null : (diff.changes[current] ?? null);
  const hidden = showDiagnostics ? NO_CATEGORIES : DIAGNOSTIC_CATEGORIES;
  const { nodes, edges } = diff.summary;

  return (
    <div className="space-y-6">
      <section aria-labelledby="diff-summary-title" className="space-y-2">
        <h2 id="diff-summary-title" className="sr-only">
          Summary
        </h2>
        <p className="text-sm" data-testid="diff-summary">
          {diff.summary.identical ? (
            <Badge tone="good">identical workflows</Badge>
          ) : (
            <>
              <span className="font-semibold tabular-nums" data-testid="change-count-total">
                {diff.summary.changeCount} change{diff.summary.changeCount === 1 ? "" : "s"}
              </span>
              <span className="text-slate-600 dark:text-slate-400">
                {" "}
                · nodes: {nodes.added} added, {nodes.removed} removed, {nodes.modified} changed, {nodes.unchanged} unchanged{nodes.renamed ? `, ${nodes.renamed} renumbered` : ""}
                {nodes.moved ? `, ${nodes.moved} moved` : ""} · edges: {edges.added} added, {edges.removed} removed, {edges.unchanged} unchanged
              </span>
            </>
          )}
        </p>
        <ChangeCounts counts={comparison.counts} total={diff.summary.changeCount} />
      </section>

      <SideProblems side={comparison.before} label={labels.before} href={responseHrefs.before} />
      <SideProblems side={comparison.after} label={labels.after} href={responseHrefs.after} />

      <section aria-labelledby="graphs-title" className="space-y-2">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="graphs-title" className="text-lg font-semibold">
            Graphs
          </h2>
          <div className="flex flex-wrap items-center gap-4 text-sm">
            <fieldset className="flex items-center gap-1 rounded-md border border-slate-300 p-0.5 dark:border-slate-600" data-testid="layout-switch">
              <legend className="sr-only">Layout</legend>
              {(
                [
                  ["side-by-side", "Side by side"],
                  ["stacked", "Stacked"],
                  ["merged", "Merged"],
                ] as const
              ).map(([value, text]) => (
                <label key={value} className={`cursor-pointer rounded px-2 py-1 ${layout === value ? "bg-brand-600 text-white" : "hover:bg-slate-100 dark:hover:bg-slate-800"}`}>
                  <input type="radio" name="diff-layout" value={value} checked={layout === value} onChange={() => chooseLayout(value)} className="sr-only" />
                  {text}
                </label>
              ))}
            </fieldset>
            {layout !== "merged" ? (
              <label className="flex cursor-pointer items-center gap-1.5">
                <input type="checkbox" checked={sync} onChange={(event) => setSync(event.target.checked)} className="h-4 w-4 accent-slate-700" />
                Pan and zoom together
              </label>
            ) : null}
            <label className="flex cursor-pointer items-center gap-1.5">
              <input type="checkbox" checked={showDiagnostics} onChange={(event) => setShowDiagnostics(event.target.checked)} className="h-4 w-4 accent-slate-700" />
              Show diagnostics
            </label>
            <button type="button" className={buttonStyles.secondary} onClick={() => canvases.current?.fitAll()}>
              Fit
            </button>
          </div>
        </div>
        <DiffLegend />
        <DiffCanvases
          ref={canvases}
          layout={layout}
          before={{ view: comparison.before.view, marks: comparison.before.marks, label: labels.before, emptyText: emptyText(comparison.before), repaired: comparison.before.graph === "repaired" }}
          after={{ view: comparison.after.view, marks: comparison.after.marks, label: labels.after, emptyText: emptyText(comparison.after), repaired: comparison.after.graph === "repaired" }}
          merged={merged}
          sync={sync}
          selected={selected}
          onSelect={onSelect}
          hiddenCategories={hidden}
        />
        <p className="text-xs text-slate-500">
          Keyboard: <kbd>n</kbd> / <kbd>p</kbd> next and previous change; in a graph, Tab to a node, arrow keys follow the edges, Enter selects.
          {responseHrefs.before || responseHrefs.after ? " Open a side on its own: " : ""}
          {responseHrefs.before ? (
            <Link href={responseHrefs.before} className="text-brand-700 underline underline-offset-2 dark:text-brand-300">
              {labels.before}
            </Link>
          ) : null}
          {responseHrefs.before && responseHrefs.after ? " · " : ""}
          {responseHrefs.after ? (
            <Link href={responseHrefs.after} className="text-brand-700 underline underline-offset-2 dark:text-brand-300">
              {labels.after}
            </Link>
          ) : null}
        </p>
      </section>

      <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <div className={cardStyles}>
          <ChangeList changes={diff.changes} current={current} onChoose={choose} onStep={step} />
        </div>
        <div className={cardStyles}>
          <ChangeDetail change={change} labels={labels} position={current} count={diff.changes.length} />
        </div>
      </div>

      <Regressions comparison={comparison} labels={labels} mode={mode} onFocusDiagnostic={focusDiagnostic} />
    </div>
  );
}

function DiffLegend() {
  const item = (className: string, text: string) => (
    <span className="flex items-center gap-1">
      <span aria-hidden="true" className={`inline-block h-3 w-5 rounded-sm ${className}`} />
      {text}
    </span>
  );
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-400" aria-label="Legend">
      {item("bg-emerald-600", "added")}
      {item("bg-red-600", "removed (dashed edges)")}
      {item("bg-amber-500", "changed")}
      {item("bg-sky-600", "renumbered or moved")}
      {item("bg-slate-300 dark:bg-slate-600", "unchanged (faded)")}
      {item("border-2 border-red-500 bg-transparent", "diagnostic ring")}
    </div>
  );
}
