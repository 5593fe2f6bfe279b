// The resume prompt's token budget (config resume_tokens), past the pins: the handoff's
// sections are filled in store/sections.ts's `budget` order (in progress, decisions, open
// questions, tried and abandoned, next steps, the files of the last hops, completed,
// references), item by item, and the first item that does not fit ends the filling. What
// is left out is counted in one line per section naming the file that holds it, so the
// prompt's size follows the live state, never the length of the chain. Pure: the caller
// gives the token count.
import { BUDGET_KEYS, TITLE, type BodyKey } from '../store/sections.js';

export type BudgetKey = BodyKey | 'files';
export type Budgeted = Record<BudgetKey, string>;

export interface Fitted {
  parts: Budgeted;
  /** Items left out, by section (none: the whole handoff fit). */
  left: Partial<Record<BudgetKey, number>>;
}

/**
 * Current state is read with the handoff's own files: both are "the files of the last hops".
 * Derived on first use, not at load: the hot-path chunk evaluates its modules in an order
 * of its own (scripts/hot-path.js), so nothing here may need sections.ts to have run first.
 */
let order: readonly BudgetKey[] | undefined;
const ORDER = (): readonly BudgetKey[] =>
  (order ??= BUDGET_KEYS.flatMap((k): BudgetKey[] => (k === 'goal' ? [] : k === 'current_state' ? ['files', k] : [k])));
// The ellipsis escaped: one character past ASCII makes node hold the whole hot-path chunk as
// two-byte text (scripts/bundle.js refuses it).
const FOLDED = /^- \u2026 (\d+) (?:earlier|more)\b/;

/**
 * A section's text as units a reader needs whole: a list item with its continuation
 * lines, or a paragraph; a heading goes with the unit after it. Joined by newlines they
 * give the text back.
 */
export function units(text: string): string[] {
  const out: string[] = [];
  let pending = '';
  for (const line of text.split('\n')) {
    if (/^#{3,} /.test(line) || line.trim() === '') {
      if (out.length > 0 || pending !== '' || line.trim() !== '') pending += `${line}\n`;
    } else if (/^(?:[-*+] |\d+[.)] )/.test(line) || pending !== '' || out.length === 0) {
      out.push(pending + line);
      pending = '';
    } else out[out.length - 1] += `\n${line}`;
  }
  return out;
}

const LEAD = /^(?:[ \t]*\n|#{3,} .*\n)*/;

/** How many items a unit stands for: a folded line ("… 12 earlier items") for its count, a paragraph for one. */
function itemsIn(unit: string): number {
  const folded = FOLDED.exec(unit.replace(LEAD, ''));
  return folded ? Number(folded[1]) : 1;
}

const headingOf = (key: BudgetKey) => `## ${key === 'files' ? 'Files' : TITLE[key]}\n\n`;

/**
 * The most the parts can cost in fitBudget for a count that never exceeds a text's length,
 * as the token estimate never does (tokens.ts): each section's heading, its units and
 * their line ends. A budget at least this large takes every unit, so nothing need be counted.
 */
export function mostTokens(parts: Budgeted): number {
  let most = 0;
  for (const key of ORDER()) if (parts[key] !== '') most += headingOf(key).length + parts[key].length + 1;
  return most;
}

export function fitBudget(
  parts: Budgeted,
  budget: number,
  count: (text: string) => number,
  pointer: (left: number) => string,
): Fitted {
  // A section costs its heading and each unit on its lines: the pre-tokenizer splits at
  // line ends, so the sum is the whole's count without counting the whole again per unit.
  const heading = (key: BudgetKey) => count(headingOf(key));
  const taken = new Map<BudgetKey, Array<{ unit: string; cost: number }>>();
  const left: Partial<Record<BudgetKey, number>> = {};
  let used = 0;
  let full = false;
  for (const key of ORDER()) {
    const mine: Array<{ unit: string; cost: number }> = [];
    taken.set(key, mine);
    for (const unit of units(parts[key])) {
      if (!full) {
        const cost = count(`${unit}\n`) + (mine.length === 0 ? heading(key) : 0);
        if (used + cost <= budget) {
          mine.push({ unit, cost });
          used += cost;
          continue;
        }
        full = true;
      }
      left[key] = (left[key] ?? 0) + itemsIn(unit);
    }
  }
  // The pointers are paid for too: the last units taken make room for them.
  const pointers = () =>
    ORDER().reduce((n, key) => {
      const l = left[key];
      return l === undefined ? n : n + count(`${pointer(l)}\n`) + (taken.get(key)!.length === 0 ? heading(key) : 0);
    }, 0);
  for (let i = ORDER().length - 1; i >= 0 && used + pointers() > budget; ) {
    const key = ORDER()[i]!;
    const last = taken.get(key)!.pop();
    if (last === undefined) {
      i--;
      continue;
    }
    used -= last.cost;
    left[key] = (left[key] ?? 0) + itemsIn(last.unit);
  }
  const out = { ...parts };
  for (const key of ORDER()) {
    const n = left[key];
    if (n !== undefined) out[key] = [...taken.get(key)!.map((t) => t.unit), pointer(n)].join('\n');
  }
  return { parts: out, left };
}
