"use client";

// The annotator's review screen: one judge verdict at a time, keyboard first. Items are served by a server action
// that locks them for two minutes; votes are saved by another and the next item follows. In blind mode the judge's
// verdict and reason arrive from the server only with the saved vote, so they cannot be read before voting.

import Link from "next/link";
import { useCallback, useEffect, useEffectEvent, useRef, useState } from "react";
import { claimReviewItemAction, renewReviewLockAction, submitVoteAction } from "@/app/actions/review";
import { Badge } from "@/components/ui/badge";
import { ProgressBar } from "@/components/ui/progress-bar";
import { buttonStyles, cardStyles } from "@/components/ui/styles";
import { LOCK_MS } from "@/lib/review/ordering";
import type { ReviewMode } from "@/lib/review/queue";
import { resolveShortcut, type ShortcutAction } from "@/lib/review/shortcuts";
import type { FollowedRules, JudgeCorrectness } from "@/lib/review/votes";
import type { ClaimOutcome, ReviewItemView } from "@/lib/server/data/review";
import { JudgeInputsPanel } from "./judge-inputs-panel";
import { JudgePromptPanel } from "./judge-prompt-panel";
import type { JudgeSystemPrompt } from "@/lib/server/data/judge-prompts";
import { ShortcutHelp } from "./shortcut-help";
import { WorkflowSlot } from "./workflow-slot";

type ClaimRequest = Parameters<typeof claimReviewItemAction>[0]["request"];

interface FormState {
  pass: boolean | null;
  judgeCorrect: JudgeCorrectness | null;
  rules: FollowedRules | null;
  comment: string;
}

const EMPTY_FORM: FormState = { pass: null, judgeCorrect: null, rules: null, comment: "" };

function formFor(item: ReviewItemView | null): FormState {
  const vote = item?.myVote;
  if (!vote) return EMPTY_FORM;
  return { pass: vote.pass, judgeCorrect: vote.judgeCorrect, rules: vote.followedRules, comment: vote.comment ?? "" };
}

function verdictWord(verdict: boolean): string {
  return verdict ? "pass" : "fail";
}

function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !["radio", "checkbox", "button", "submit"].includes(target.type);
}

type Message = { tone: "info" | "error"; text: string } | null;

export function ReviewSession({
  queueId,
  mode,
  initialItemId,
  canManage,
  judgePrompt = null,
}: {
  queueId: string;
  mode: ReviewMode;
  initialItemId: string | null;
  canManage: boolean;
  /** The judge's system prompt for the queue's stage (null when the benchmark has none). */
  judgePrompt?: JudgeSystemPrompt | null;
}) {
  const [outcome, setOutcome] = useState<ClaimOutcome | null>(null);
  const [form, setForm] = useState<FormState>(EMPTY_FORM);
  const [pending, setPending] = useState(true);
  const [message, setMessage] = useState<Message>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [promptOpen, setPromptOpen] = useState(false);
  const busy = useRef(false);
  const comment = useRef<HTMLTextAreaElement>(null);
  const item = outcome?.kind === "item" ? outcome.item : null;

  /** Shows what the server served (or says why nothing changed). Called from callbacks only. */
  const apply = useCallback(
    (result: Awaited<ReturnType<typeof claimReviewItemAction>>, keepMessage: boolean) => {
      if (!result.ok) {
        setMessage({ tone: "error", text: result.message });
        return;
      }
      const next = result.value;
      if (next.kind === "none") {
        setMessage({ tone: "info", text: "There is no earlier vote to go back to." });
        return;
      }
      setOutcome(next);
      setForm(formFor(next.kind === "item" ? next.item : null));
      if (!keepMessage) setMessage(null);
      const url = next.kind === "item" ? `/review/${queueId}?item=${next.item.id}` : `/review/${queueId}`;
      window.history.replaceState(null, "", url);
    },
    [queueId],
  );

  const load = useCallback(
    async (request: ClaimRequest, keepMessage = false) => {
      setPending(true);
      try {
        apply(await claimReviewItemAction({ queueId, request }), keepMessage);
      } catch {
        setMessage({ tone: "error", text: "The server could not be reached. Try again." });
      } finally {
        setPending(false);
      }
    },
    [queueId, apply],
  );

  useEffect(() => {
    let current = true;
    claimReviewItemAction({ queueId, request: initialItemId ? { kind: "item", itemId: initialItemId } : { kind: "resume" } })
      .then((result) => {
        if (current) apply(result, false);
      })
      .catch(() => {
        if (current) setMessage({ tone: "error", text: "The server could not be reached. Reload the page to try again." });
      })
      .finally(() => {
        if (current) setPending(false);
      });
    return () => {
      current = false;
    };
  }, [queueId, initialItemId, apply]);

  // Others hold the remaining items: look again every few seconds.
  useEffect(() => {
    if (outcome?.kind !== "waiting") return;
    const timer = window.setInterval(() => void load({ kind: "resume" }, true), 5000);
    return () => window.clearInterval(timer);
  }, [outcome?.kind, load]);

  // Keep the item reserved while the annotator has it open and visible; a hidden tab lets the lock lapse so an
  // abandoned tab never holds an item for good. Renewing at half the lock's life leaves room for a slow request.
  const lockedItemId = item && !item.myVote && item.lockedUntil ? item.id : null;
  useEffect(() => {
    if (!lockedItemId) return;
    let lost = false;
    const renew = () => {
      if (lost || document.visibilityState !== "visible") return;
      renewReviewLockAction({ itemId: lockedItemId })
        .then((result) => {
          if (!result.ok || result.value.lockedUntil !== null || lost) return;
          lost = true;
          setMessage({ tone: "info", text: "This item is no longer reserved for you: another annotator may have been served it. Your vote still counts if you save it." });
        })
        .catch(() => undefined); // a missed renewal is retried at the next tick
    };
    const timer = window.setInterval(renew, LOCK_MS / 2);
    document.addEventListener("visibilitychange", renew);
    return () => {
      lost = true;
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", renew);
    };
  }, [lockedItemId]);

  const position = item?.position ?? null;
  const revealed = item?.judge !== null && item !== null;

  async function submit() {
    if (!item || busy.current) return;
    const blindFirstVote = mode === "blind" && !item.myVote;
    if (mode === "reveal" && !form.judgeCorrect) return setMessage({ tone: "error", text: "Choose whether the judge was correct (c) or incorrect (i)." });
    if (mode === "blind" && form.pass === null) return setMessage({ tone: "error", text: "Give your own verdict first: p (passes) or f (fails)." });
    if (!blindFirstVote && !form.rules) return setMessage({ tone: "error", text: "Say whether the judge followed its prompt's rules: y, n or u." });
    busy.current = true;
    setPending(true);
    try {
      const verdict = mode === "blind" ? { pass: form.pass! } : { judgeCorrect: form.judgeCorrect! };
      const result = await submitVoteAction({ itemId: item.id, ...verdict, followedRules: form.rules, comment: form.comment });
      if (!result.ok) {
        setMessage({ tone: "error", text: result.message });
        return;
      }
      const saved = result.value;
      if (blindFirstVote) {
        // Reveal in place: the annotator now sees the judge's verdict and reason and answers the rules question.
        setOutcome({ ...outcome!, kind: "item", item: { ...item, judge: saved.judge, myVote: saved.vote, lockedUntil: null }, progress: saved.progress, queue: saved.queue, hasBack: true });
        setMessage({
          tone: "info",
          text: `Saved. The judge said ${verdictWord(saved.judge.verdict)}; you said ${verdictWord(saved.vote.pass)}. Did the judge follow its prompt's rules? Press y, n or u, then Enter for the next item.`,
        });
        return;
      }
      const label = `item ${item.position + 1}`;
      await load({ kind: "next", fromPosition: item.position }, true);
      setMessage({ tone: "info", text: `Saved your vote on ${label}.` });
    } catch {
      setMessage({ tone: "error", text: "The vote could not be saved. Check your connection and press Enter again." });
    } finally {
      busy.current = false;
      setPending(false);
    }
  }

  function act(action: ShortcutAction) {
    switch (action) {
      case "judge-correct":
      case "judge-incorrect":
        if (item) setForm((current) => ({ ...current, judgeCorrect: action === "judge-correct" ? "correct" : "incorrect" }));
        return;
      case "own-pass":
      case "own-fail":
        if (item) setForm((current) => ({ ...current, pass: action === "own-pass" }));
        return;
      case "rules-yes":
      case "rules-no":
      case "rules-unsure":
        if (item) setForm((current) => ({ ...current, rules: action === "rules-yes" ? "yes" : action === "rules-no" ? "no" : "unsure" }));
        return;
      case "comment":
        comment.current?.focus();
        return;
      case "submit":
        void submit();
        return;
      case "next":
        if (!busy.current) void load({ kind: "next", fromPosition: position ?? -1 });
        return;
      case "back":
        if (!busy.current) void load({ kind: "back", fromPosition: position });
        return;
      case "help":
        setHelpOpen((open) => !open);
        return;
      case "prompt":
        setPromptOpen((open) => !open);
        return;
      case "close":
        if (helpOpen) setHelpOpen(false);
        else if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
        return;
    }
  }

  const onKey = useEffectEvent((event: KeyboardEvent) => {
    const target = event.target;
    // Enter or Space on a focused button or link does what that control says.
    if ((event.key === "Enter" || event.key === " ") && target instanceof HTMLElement && target.closest("button, a, summary")) return;
    const action = resolveShortcut(event, { mode, inTextField: isTextField(target), helpOpen });
    if (!action) return;
    event.preventDefault();
    act(action);
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKey(event);
    window.addEventListener("keydown", listener);
    return () => window.removeEventListener("keydown", listener);
  }, []);

  const progress = outcome ? (
    <div className="grid gap-3 sm:grid-cols-2" aria-label="Progress">
      <ProgressBar label="Your votes" value={outcome.progress.voted} max={outcome.progress.total} />
      <ProgressBar label="Queue votes" value={outcome.queue.votes} max={outcome.queue.target} />
    </div>
  ) : null;

  return (
    <div className="space-y-4">
      {progress}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Keyboard first: press <kbd className="rounded border px-1 font-mono text-xs">?</kbd> for every shortcut.
        </p>
        <button type="button" className={buttonStyles.secondary} onClick={() => setHelpOpen(true)}>
          Shortcuts (?)
        </button>
      </div>
      <p role="status" aria-live="polite" className={`min-h-5 text-sm ${message?.tone === "error" ? "text-red-700 dark:text-red-400" : "text-slate-700 dark:text-slate-300"}`}>
        {message?.text ?? (pending ? "Loading…" : "")}
      </p>

      {!outcome && pending ? <div className={`${cardStyles} h-64 animate-pulse`} aria-label="Loading the next item" /> : null}

      {outcome && outcome.kind !== "item" ? (
        <section aria-label="Queue status" className={`${cardStyles} space-y-3 text-center`}>
          {outcome.kind === "done" ? (
            <>
              <h2 className="text-lg font-medium">You have voted on every item available to you</h2>
              <p className="text-sm text-slate-600 dark:text-slate-400">
                {outcome.progress.voted} vote{outcome.progress.voted === 1 ? "" : "s"} saved. Press k or ← to review or change them.
              </p>
            </>
          ) : outcome.kind === "waiting" ? (
            <>
              <h2 className="text-lg font-medium">Other annotators are working on the remaining items</h2>
              <p className="text-sm text-slate-600 dark:text-slate-400">
                {outcome.progress.remaining} item{outcome.progress.remaining === 1 ? " is" : "s are"} reserved for two minutes at a time. This page looks again every few seconds.
              </p>
            </>
          ) : outcome.kind === "unavailable" ? (
            <h2 className="text-lg font-medium">
              {outcome.reason === "locked"
                ? "Another annotator is reviewing this item right now"
                : outcome.reason === "full"
                  ? "This item already has all its votes"
                  : "This item is not in the queue"}
            </h2>
          ) : null}
          <div className="flex justify-center gap-2">
            {outcome.hasBack ? (
              <button type="button" className={buttonStyles.secondary} onClick={() => act("back")}>
                Back to my votes (k)
              </button>
            ) : null}
            {outcome.kind !== "done" ? (
              <button type="button" className={buttonStyles.secondary} onClick={() => void load({ kind: "resume" })}>
                {outcome.kind === "waiting" ? "Look again" : "Next available item"}
              </button>
            ) : null}
            <Link href="/review" className={buttonStyles.secondary}>
              All my queues
            </Link>
            {canManage ? (
              <Link href={`/review/${queueId}/agreement`} className={buttonStyles.secondary}>
                Agreement
              </Link>
            ) : null}
          </div>
        </section>
      ) : null}

      {item ? (
        <div className="grid gap-6 pb-[48vh] lg:grid-cols-[minmax(0,1fr)_24rem] lg:pb-0" aria-busy={pending}>
          <div className="min-w-0 space-y-4">
            <header className="flex flex-wrap items-center gap-2 text-sm">
              <h2 className="text-lg font-semibold" data-testid="item-heading">
                Item {item.position + 1} of {outcome?.queue.items}
              </h2>
              <Badge>{item.stage} stage</Badge>
              <Badge tone="info">judge: {item.judgeName}</Badge>
              <span className="text-slate-600 dark:text-slate-400">
                {item.model.displayName} · {item.task} round {item.round}
                {item.stage === "resolve" ? ` · test case ${item.casePosition}` : ""} · {item.domain}
              </span>
            </header>
            <JudgePromptPanel prompt={judgePrompt} open={promptOpen} onToggle={() => setPromptOpen((open) => !open)} itemFingerprint={item.promptFingerprint} />
            <JudgeInputsPanel sections={item.sections} fileInputs={item.fileInputs} collapse={item.stage === "pass" ? ["workflow"] : []} />
            <WorkflowSlot workflow={item.workflow} label={item.stage === "pass" ? "Workflow (pretty-printed)" : "Workflow of the response (context; the resolve judge saw only its outputs)"} />
          </div>

          <aside className="space-y-4 lg:sticky lg:top-4 lg:self-start">
            <section aria-label="Judge's verdict" className={cardStyles}>
              <h2 className="mb-2 text-sm font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">Judge&apos;s verdict</h2>
              {revealed && item.judge ? (
                <div className="space-y-2">
                  <p data-testid="judge-verdict">
                    <Badge tone={item.judge.verdict ? "good" : "bad"}>{verdictWord(item.judge.verdict)}</Badge>
                  </p>
                  {item.judge.reason ? (
                    <pre tabIndex={0} className="max-h-72 overflow-auto whitespace-pre-wrap break-words font-sans text-sm">
                      {item.judge.reason}
                    </pre>
                  ) : (
                    <p className="text-sm italic text-slate-500">No reason was recorded.</p>
                  )}
                </div>
              ) : (
                <p data-testid="judge-hidden" className="text-sm text-slate-600 dark:text-slate-400">
                  Hidden until you vote (blind review). Decide from the inputs alone.
                </p>
              )}
            </section>

            {/* On a phone the vote stays at the bottom of the screen while the inputs scroll above it. */}
            <section
              aria-label="Your vote"
              data-testid="vote-bar"
              className={`${cardStyles} fixed inset-x-0 bottom-0 z-30 max-h-[45vh] space-y-4 overflow-y-auto rounded-b-none shadow-[0_-4px_12px_rgba(15,23,42,0.15)] lg:static lg:z-auto lg:max-h-none lg:overflow-visible lg:rounded-b-xl lg:shadow-none`}
            >
              {mode === "reveal" ? (
                <fieldset>
                  <legend className="text-sm font-medium">Was the judge&apos;s verdict correct?</legend>
                  <div className="mt-2 flex gap-4">
                    {(["correct", "incorrect"] as const).map((value) => (
                      <label key={value} className="flex items-center gap-2 text-sm">
                        <input type="radio" name="judgeCorrect" checked={form.judgeCorrect === value} onChange={() => setForm((current) => ({ ...current, judgeCorrect: value }))} />
                        {value === "correct" ? "Correct" : "Incorrect"} <kbd className="font-mono text-xs text-slate-500">{value === "correct" ? "c" : "i"}</kbd>
                      </label>
                    ))}
                  </div>
                </fieldset>
              ) : (
                <fieldset>
                  <legend className="text-sm font-medium">Your verdict: does the response pass this check?</legend>
                  <div className="mt-2 flex gap-4">
                    {([true, false] as const).map((value) => (
                      <label key={String(value)} className="flex items-center gap-2 text-sm">
                        <input type="radio" name="pass" checked={form.pass === value} onChange={() => setForm((current) => ({ ...current, pass: value }))} />
                        {value ? "Passes" : "Fails"} <kbd className="font-mono text-xs text-slate-500">{value ? "p" : "f"}</kbd>
                      </label>
                    ))}
                  </div>
                  {item.judge && form.pass !== null ? (
                    <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
                      So the judge was <strong>{form.pass === item.judge.verdict ? "correct" : "incorrect"}</strong>.
                    </p>
                  ) : null}
                </fieldset>
              )}

              <fieldset disabled={mode === "blind" && !item.judge}>
                <legend className="text-sm font-medium">Did the judge follow its prompt&apos;s rules?</legend>
                {mode === "blind" && !item.judge ? <p className="text-xs text-slate-500">Asked once the judge&apos;s reasoning is revealed.</p> : null}
                <div className="mt-2 flex gap-4">
                  {(["yes", "no", "unsure"] as const).map((value) => (
                    <label key={value} className="flex items-center gap-2 text-sm">
                      <input type="radio" name="rules" checked={form.rules === value} onChange={() => setForm((current) => ({ ...current, rules: value }))} />
                      {value === "yes" ? "Yes" : value === "no" ? "No" : "Unsure"} <kbd className="font-mono text-xs text-slate-500">{value[0]}</kbd>
                    </label>
                  ))}
                </div>
              </fieldset>

              <div>
                <label htmlFor="review-comment" className="text-sm font-medium">
                  Comment <span className="font-normal text-slate-500">(optional; e focuses, Esc leaves)</span>
                </label>
                <textarea
                  id="review-comment"
                  ref={comment}
                  rows={3}
                  maxLength={4000}
                  value={form.comment}
                  onChange={(event) => setForm((current) => ({ ...current, comment: event.target.value }))}
                  className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-600 dark:bg-slate-900"
                />
              </div>

              <div className="flex flex-wrap gap-2">
                <button type="button" className={buttonStyles.secondary} onClick={() => act("back")} disabled={pending || !outcome?.hasBack}>
                  ← Back
                </button>
                <button type="button" className={buttonStyles.secondary} onClick={() => act("next")} disabled={pending}>
                  {item.myVote ? "Next →" : "Skip →"}
                </button>
                <button type="button" className={buttonStyles.primary} onClick={() => void submit()} disabled={pending}>
                  {mode === "blind" && !item.myVote ? "Save and reveal (Enter)" : "Save and next (Enter)"}
                </button>
              </div>
              {item.myVote ? (
                <p className="text-xs text-slate-500">You voted on this item; saving again changes your vote.</p>
              ) : item.lockedUntil ? (
                <p className="text-xs text-slate-500">Reserved for you while this page stays open, so nobody else is served it meanwhile (a hidden tab lets it go after two minutes).</p>
              ) : null}
            </section>
          </aside>
        </div>
      ) : null}

      <ShortcutHelp open={helpOpen} mode={mode} onClose={() => setHelpOpen(false)} />
    </div>
  );
}
