// The goal of a chain is the user's request, in the user's words: a handoff written at a
// compaction has no goal of its own, so it keeps the chain's (and says what this step was
// in `step`), and a goal that names only a session, or stacks "continue:" prefixes, as
// older versions wrote, is never copied forward. Pure.

const CONTINUE = /^(?:continue:\s*)+/i;
/** What older versions wrote when they knew no goal: a session id is not a task. */
const PLACEHOLDER = /^the work of the compacted agent session\b/i;

/** The goal a continuation keeps: the parent's, without prefixes, unless it says nothing. */
export function chainGoal(parentGoal: string | undefined): string | undefined {
  const goal = parentGoal?.replace(CONTINUE, '').trim();
  return goal && !PLACEHOLDER.test(goal) ? goal : undefined;
}

/**
 * The user's request from a session: its first user turn, when the extraction still holds
 * it (turns kept equal to turns seen), first non-empty line.
 */
export function firstRequest(turns: ReadonlyArray<{ text: string }>, seen: number): string | undefined {
  if (turns.length === 0 || turns.length < seen) return undefined;
  return turns[0]!.text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
}
