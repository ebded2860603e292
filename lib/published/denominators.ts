// What the paper's Table 1 percentages are over: turns of the Chat2Workflow benchmark per domain and in total,
// three test cases per turn, three runs per model. Facts from the benchmark (docs §6–7), checked against it in tests.

/** Turns per domain and in total ("Average") of the Chat2Workflow benchmark: 79 turns, 237 test cases. */
export const PUBLISHED_TURNS: Readonly<Record<string, number>> = {
  Research: 15,
  Document: 15,
  Enterprise: 12,
  Developer: 8,
  Education: 11,
  AIGC: 18,
  Average: 79,
};

/** Every published figure is the mean of this many independent runs. */
export const PUBLISHED_RUNS = 3;
