// A time budget for the synchronous work of a session start (parsing and redacting text
// from committed files). A pull request can commit text that some pattern takes very long
// on; the agent kills a hook past its own limit and the session starts with nothing. Run
// under node:vm's timeout, which interrupts even a regular expression mid-match, such
// work is cut off at the budget, and the hook sends what it can without it instead.
import { HandoffError } from '../core/errors.js';

/** Thrown when the budget is spent; the hook catches it and falls back. */
export class BudgetSpent extends HandoffError {
  constructor(readonly budgetMs: number) {
    super(`the session-start budget of ${budgetMs} ms was spent`);
    this.name = 'BudgetSpent';
  }
}

/** How long a session start may take, in ms: HANDOFF_SESSION_BUDGET_MS, else well inside the 30 s an agent allows a hook. */
export function sessionBudgetMs(env: NodeJS.ProcessEnv): number {
  const set = Number(env.HANDOFF_SESSION_BUDGET_MS);
  return env.HANDOFF_SESSION_BUDGET_MS !== undefined && Number.isFinite(set) && set >= 0 ? set : 10_000;
}

export type Within = <R>(work: () => R) => R;

/** Runs synchronous work until `deadline` (ms since the epoch, on `now`'s clock), or throws BudgetSpent. */
export function within(deadline: number, budgetMs: number, now: () => number = Date.now): Within {
  return (work) => {
    const left = Math.floor(deadline - now());
    if (left <= 0) throw new BudgetSpent(budgetMs);
    const vm = process.getBuiltinModule('node:vm');
    try {
      return vm.runInNewContext('work()', { work }, { timeout: left }) as ReturnType<typeof work>;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new BudgetSpent(budgetMs);
      throw error;
    }
  };
}
