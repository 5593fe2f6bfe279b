// @ts-check
// A long task told in natural words: thirty sessions of an agent adding rate limiting to an
// API, one handoff each. Written once, before the mechanisms it measures were changed, and
// kept apart from them: fix carrying, dedup, folding and the budget, never these phrasings.
// Each hop says what a real session says: a decision in passing, a question the user leaves
// open, a todo list rewritten, a check that fails and later passes, one file edited.

export const STORY_GOAL = 'Add rate limiting to the public API';

/** Hop -> what the agent decided. Reversals name what they turn away from. */
export const DECISIONS = {
  1: "I'm going with a token bucket for the limiter, since it lets clients burst a little.",
  3: "Let's keep the counters in Redis, because the API runs on several nodes.",
  5: 'I decided to key the limits by API key rather than by client IP, since many customers sit behind one NAT.',
  7: "We'll answer with 429 and a Retry-After header, because that is what the HTTP spec recommends.",
  9: 'Actually, we no longer need Redis: the counters stay in process memory, because we deploy a single node this quarter.',
  11: 'The limits will live in config/limits.yml, so ops can change them without a deploy.',
  13: "I'll switch from the token bucket to a sliding window log, because bursts hit the billing endpoint too hard.",
  16: "Let's exempt the health check from limiting, since the load balancer polls it every second.",
  19: "I'm logging rejected requests at warn level, because they usually mean abuse.",
  22: 'The middleware goes before authentication, so a flood never reaches the database.',
  25: 'We should drop warn level for rejections and log them at info, because the logs got too noisy.',
  28: "We'll send the remaining quota in an X-RateLimit-Remaining header, because the SDK team asked for it.",
};
/** Hop of a decision -> hop of the one that replaces it. */
export const REVERSED = { 3: 9, 1: 13, 19: 25 };

/** Hop -> a question the agent asks and the user does not answer. */
export const QUESTIONS = {
  2: 'Should the admin endpoints get their own, higher limit?',
  14: 'Do you want the window to reset at midnight UTC, or roll continuously?',
  20: 'Is 100 requests a minute the right default for the free tier?',
};
/** A question asked and answered in the same session: never an open question. */
export const ANSWERED = {
  8: ['Should internal batch jobs be limited too?', 'No, batch jobs are exempt, they run on the private network.'],
};

export const TASKS = [
  'Sketch the limiter interface',
  'Write the token bucket',
  'Add the Redis client wrapper',
  'Wire the middleware into the router',
  'Key limits by API key',
  'Write unit tests for the limiter',
  'Return 429 with Retry-After',
  'Add the in-memory counter store',
  'Remove the Redis wrapper',
  'Load limits from config/limits.yml',
  'Validate the limits file on startup',
  'Write the sliding window log',
  'Port the tests to the sliding window',
  'Benchmark the limiter under load',
  'Exempt the health check',
  'Add metrics for rejected requests',
  'Fix the flaky window test',
  'Log rejected requests',
  'Document the limits for ops',
  'Add per-route overrides',
  'Move the middleware before auth',
  'Test the middleware order',
  'Handle clock skew in the window',
  'Lower the log level of rejections',
  'Add the remaining-quota header',
  'Update the SDK changelog',
  'Load-test the billing endpoint',
  'Clean up the config loader',
  'Write the rollout notes',
  'Ask ops to review the limits',
  'Tag the release',
];
/** Hop i works on TASKS[i-1] and plans TASKS[i]. */
export const task = (i) => TASKS[i - 1];

export const FILES = [
  'src/ratelimit/limiter.ts',
  'src/ratelimit/bucket.ts',
  'src/ratelimit/redis.ts',
  'src/server/router.ts',
  'src/ratelimit/keys.ts',
  'test/ratelimit/limiter.test.ts',
  'src/ratelimit/respond.ts',
  'src/ratelimit/memory-store.ts',
  'src/ratelimit/index.ts',
  'src/config/limits.ts',
  'src/config/validate.ts',
  'src/ratelimit/window.ts',
  'test/ratelimit/window.test.ts',
  'bench/limiter.js',
  'src/server/health.ts',
  'src/metrics/rejections.ts',
  'test/ratelimit/window-flaky.test.ts',
  'src/ratelimit/log.ts',
  'docs/limits.md',
  'src/ratelimit/routes.ts',
  'src/server/middleware.ts',
  'test/server/order.test.ts',
  'src/ratelimit/clock.ts',
  'src/ratelimit/log-level.ts',
  'src/ratelimit/headers.ts',
  'sdk/CHANGELOG.md',
  'bench/billing.js',
  'src/config/loader.ts',
  'docs/rollout.md',
  'docs/review.md',
];

/** Hop -> a check that fails there; FIXED: the hop where it passes again (never: still abandoned). */
export const FAILS = { 4: 'npm test -- limiter', 12: 'npx tsc --noEmit', 17: 'npm run lint' };
export const FIXED = { 4: 6, 12: 15 };

/** What the user says to start each session: plain, varied, mostly no new facts. */
export const NUDGES = [
  'ok, carry on',
  'looks good, go on',
  'sure, next one',
  'fine by me, keep going',
  'yes please continue',
  'go ahead with the next item',
  'great, what is next?',
  'continue where you left off',
];
export const FIRST = `${STORY_GOAL}. Don't touch the auth module.`;

/**
 * Session i of the story as Claude Code JSONL lines, through the caller's line builders
 * (user, say, tool, result) so the envelope is written in one place.
 */
export function storySession(cwd, i, { user, say, tool, result }, join) {
  const out = [user(cwd, i === 1 ? FIRST : NUDGES[i % NUDGES.length])];
  if (QUESTIONS[i]) out.push(say(cwd, QUESTIONS[i]), user(cwd, NUDGES[(i + 3) % NUDGES.length]));
  if (ANSWERED[i]) out.push(say(cwd, ANSWERED[i][0]), user(cwd, ANSWERED[i][1]));
  if (DECISIONS[i]) out.push(say(cwd, DECISIONS[i]));
  // As agents rebuild their list from the resume prompt: the last few finished tasks stay on it.
  const todos = [
    ...TASKS.slice(Math.max(0, i - 6), i - 1).map((content) => ({ content, status: 'completed' })),
    { content: task(i), status: 'in_progress' },
    { content: task(i + 1), status: 'pending' },
  ];
  out.push(tool(cwd, 'TodoWrite', { todos: todos.map((t) => ({ ...t, activeForm: t.content })) }, `todo${i}`));
  out.push(
    tool(cwd, 'Edit', { file_path: join(cwd, FILES[i - 1]), old_string: 'a', new_string: 'b' }, `edit${i}`),
    result(cwd, `edit${i}`, false),
  );
  if (FAILS[i]) out.push(tool(cwd, 'Bash', { command: FAILS[i] }, `bad${i}`), result(cwd, `bad${i}`, true));
  for (const [k, at] of Object.entries(FIXED))
    if (at === i) out.push(tool(cwd, 'Bash', { command: FAILS[k] }, `good${k}`), result(cwd, `good${k}`, false));
  return `${out.join('\n')}\n`;
}
