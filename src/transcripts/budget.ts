// The live end of the thread within a token budget: the newest user turns that fit, the tail
// of one turn when it alone is over.
import type { Quoted } from './extract.js';

/** The newest turns that fit the budget (at least one, cut from the front if it alone is over). */
export function withinBudget(
  turns: readonly Quoted[],
  budget: number,
  count: (text: string) => number,
): { kept: Quoted[]; tokens: number; dropped: number } {
  const kept: Quoted[] = [];
  let tokens = 0;
  for (let i = turns.length - 1; i >= 0; i--) {
    const t = turns[i]!;
    const n = count(t.text);
    if (tokens + n > budget) {
      if (kept.length === 0) {
        // Keep the tail of a single oversized turn: the live end of the thread.
        const ratio = budget / Math.max(n, 1);
        const text = '…' + t.text.slice(Math.floor(t.text.length * (1 - ratio)));
        kept.unshift({ text, line: t.line });
        tokens = count(text);
      }
      break;
    }
    kept.unshift(t);
    tokens += n;
  }
  return { kept, tokens, dropped: turns.length - kept.length };
}
