// The benchmark's LLM judges as pure functions: official prompts, verdict rule, items from recorded runs, majority
// and identities. Everything here is deterministic and I/O-free; calling a model lives in lib/server/llm.
// lib/judge (this folder) is the official judge protocol; lib/judges is judge choice, agreement and calibration for the views.
//
// Public API (stable):
//   protocol  officialSystemPrompt(fileText), passUserMessage(input), resolveUserMessage(input), judgeMessages(sys, user)
//             officialQueriesText / officialInputText / officialOutputText (the preprocessing, exposed for display)
//             parseJudgeReply(reply) -> { verdict, wellFormed, reason };  reaskMessages(messages, reply) (strict mode)
//   items     passJudgeItem(question, systemPrompt) / resolveJudgeItem(question, systemPrompt) -> JudgeItem (one
//             question from stored fields);  passJudgeItems(runs, ctx) / resolveJudgeItems(runs, ctx) / judgeItemsFor
//               -> { items: JudgeItem[], issues }   JudgeItem { key, stage, model, task, round, test, messages,
//                  recorded, inputMaterial };  reachedPassJudge(record); passInputMaterial / resolveInputMaterial
//   majority  majorityVerdict(samples, tie = "fail") -> { verdict, pass, fail, missing, tie };  sampleMajority(samples);
//             panelVerdict(members, samplesByMember) -> boolean | null (each member's majority, then the members')
//   identity  endpointIdentity(baseURL), callCacheMaterial({endpoint, model, params, messages, sample}),
//             judgeIdentityJson({endpoint, model, params, promptFingerprint, strict}), canonicalJson,
//             OFFICIAL_JUDGE_PARAMS ({temperature: 0, max_tokens: 8192}), OFFICIAL_JUDGE_TIMEOUT_MS (600 s),
//             judgeParams(overrides), describeJudgeParams(params)

export * from "./protocol";
export * from "./items";
export * from "./majority";
export * from "./identity";
