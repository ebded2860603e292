// Two loopback stubs for the run-figures journey; neither is a model. One answers each benchmark question with a
// recorded run's answer to it, in any generation mode (it finds the latest round whose query the last message holds);
// the other answers the step 1_4 judge question by a fixed rule of its text, so its verdicts differ from the rule judge's.
import { turnKey, type TaskQueries } from "@/lib/benchmark/dataset";
import type { RunRecord } from "@/lib/benchmark/runs";
import { recordedAnswerText } from "./generation-replay";
import { officialReply, type StubHandler } from "./openai-stub";

/** Answers with the recorded answer of the latest round whose query appears in the last user message. */
export function recordedAnswersHandler(tasks: readonly TaskQueries[], records: readonly RunRecord[], delayMs = 0): StubHandler {
  const answers = new Map(records.map((record) => [turnKey(record.task, record.round), recordedAnswerText(record)]));
  return (request) => {
    const last = request.messages.findLast((message) => message.role === "user")?.content ?? "";
    let key: string | null = null;
    let round = 0;
    for (const task of tasks) {
      for (let index = 0; index < task.queries.length; index++) {
        if (index + 1 > round && last.includes(task.queries[index] as string)) {
          key = turnKey(task.task, index + 1);
          round = index + 1;
        }
      }
    }
    const answer = key === null ? undefined : answers.get(key);
    return answer === undefined ? { kind: "error", status: 404, message: "no recorded answer for this question" } : { kind: "reply", content: answer, delayMs };
  };
}

/**
 * The judge stub's rule: a workflow passes when its key nodes (the `gt_nodes` line of the official question) number
 * at most two. Arbitrary on purpose: figures made by it are recognisably not the rule judge's.
 */
export function keyNodeCountJudgeHandler(delayMs = 0): StubHandler {
  return (request) => {
    const user = request.messages.findLast((message) => message.role === "user")?.content ?? "";
    const line = /gt_nodes: (.*)/.exec(user)?.[1] ?? "";
    const keyNodes = (line.match(/'[^']*'/g) ?? []).length;
    return { kind: "reply", content: officialReply(`The stub counts ${keyNodes} key node(s).`, keyNodes <= 2), delayMs };
  };
}
