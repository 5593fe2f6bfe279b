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

/** Current state is read with the handoff's own files: both are "the files of the last hops". */
const ORDER: readonly BudgetKey[] = BUDGET_KEYS.flatMap((k): BudgetKey[] =>
  k === 'goal' ? [] : k === 'current_state' ? ['files', k] : [k],
);
const FOLDED = /^- … (\d+) (?:earlier|more)\b/;

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

export function fitBudget(
  parts: Budgeted,
  budget: number,
  count: (text: string) => number,
  pointer: (left: number) => string,
): Fitted {
  const taken = new Map<BudgetKey, string[]>();
  const left: Partial<Record<BudgetKey, number>> = {};
  const cost = (key: BudgetKey, list: string[]) =>
    list.length === 0 ? 0 : count(`## ${key === 'files' ? 'Files' : TITLE[key]}\n\n${list.join('\n')}\n\n`);
  let used = 0;
  let full = false;
  for (const key of ORDER) {
    const all = units(parts[key]);
    const mine: string[] = [];
    taken.set(key, mine);
    for (const unit of all) {
      if (!full) {
        const more = cost(key, [...mine, unit]) - cost(key, mine);
        if (used + more <= budget) {
          mine.push(unit);
          used += more;
          continue;
        }
        full = true;
      }
      left[key] = (left[key] ?? 0) + itemsIn(unit);
    }
  }
  // The pointers are paid for too: the last items taken make room for them.
  const withPointers = () =>
    ORDER.reduce((n, key) => n + cost(key, [...taken.get(key)!, ...(left[key] ? [pointer(left[key])] : [])]), 0);
  for (let i = ORDER.length - 1; i >= 0 && withPointers() > budget; ) {
    const key = ORDER[i]!;
    const mine = taken.get(key)!;
    const unit = mine.pop();
    if (unit === undefined) {
      i--;
      continue;
    }
    left[key] = (left[key] ?? 0) + itemsIn(unit);
  }
  const out = { ...parts };
  for (const key of ORDER) {
    const mine = taken.get(key)!;
    const n = left[key];
    if (n === undefined) continue;
    out[key] = [...mine, pointer(n)].join('\n');
  }
  return { parts: out, left };
}
