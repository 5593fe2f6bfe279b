// A handoff continues its parent's living state, so reading only the newest handoff is
// enough: every item of the parent's carried sections (store/sections.ts: completed,
// in_progress, next_steps, open_questions, decisions, tried) and its current_state notes
// is carried with its provenance, reconciled with what the new session says (a todo now
// completed moves to completed; a checked item leaves), and listed once (items are
// compared by their folded text). The completed list stays bounded: older items fold into
// a count with a pointer to the handoff that lists them.
import { sectionContent, type Body } from '../store/markdown.js';
import { carriedProv, itemKey, parseItems, renderItem, shortId, type Item } from '../store/items.js';
import { assignIds, supersede } from './decisions.js';
import { CARRIED_KEYS, TITLE, type CarriedKey } from '../store/sections.js';

export const COMPLETED_KEPT = 20;
const SUPERSEDED_KEPT = 10;

export type Sections = Record<CarriedKey, Item[]>;

export interface Subsection {
  title: string;
  text: string;
}

export interface Parent {
  id: string;
  body: Body;
  /** The parent's own files (its front-matter), which become "earlier in this chain". */
  files: readonly string[];
  /**
   * Folded keys of every item the chain's earlier handoffs listed as completed
   * (chainCompleted): one folded into a count is not counted, or listed, again.
   */
  done?: ReadonlySet<string>;
}

export interface Living {
  sections: Record<keyof Sections, string>;
  /** How many of the parent's items are still standing, and how many decisions this step superseded. */
  carried: number;
  superseded: number;
  /** Current state below this step's files: earlier files of the chain, then notes. */
  currentState: string;
}

const EARLIER_FILES = 'Earlier in this chain';
const FOLD = /^… (\d+) earlier (?:items|completed items|superseded decisions|files)\b/;
/** Hops before this one whose files Current state still lists by name. */
export const EARLIER_HOPS = 2;

/** A section's content split at its level-3 headings; text before the first one is titled ''. */
export function subsections(content: string): Subsection[] {
  const out: Subsection[] = [{ title: '', text: '' }];
  for (const line of content.split('\n')) {
    const m = /^###\s+(.*?)\s*#*\s*$/.exec(line);
    if (m) out.push({ title: m[1]!, text: '' });
    else out[out.length - 1]!.text += `${line}\n`;
  }
  return out
    .map((s) => ({ title: s.title, text: s.text.replace(/<!--[\s\S]*?-->/g, '').trim() }))
    .filter((s) => s.title !== '' || s.text !== '');
}

function dedupe(items: readonly Item[], seen = new Set<string>()): Item[] {
  const out: Item[] = [];
  for (const item of items) {
    const key = itemKey(item.text);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out;
}

function fold(items: Item[], kept: number, folded: number, parentId: string | undefined, what: string): string[] {
  const over = Math.max(0, items.length - kept);
  const total = folded + over;
  const lines = items.slice(over).map(renderItem);
  if (total > 0)
    lines.unshift(
      `- … ${total} earlier ${what}${parentId ? `: see handoff ${shortId(parentId)} and the handoffs it continues` : ''}`,
    );
  return lines;
}

function parentSections(parent: Parent): { items: Sections; folds: { completed: number; superseded: number } } {
  const items = {} as Sections;
  const folds = { completed: 0, superseded: 0 };
  for (const key of CARRIED_KEYS) {
    const content = sectionContent(parent.body, TITLE[key]);
    items[key] = [];
    for (const item of content === undefined ? [] : parseItems(content)) {
      const f = FOLD.exec(item.text);
      if (f) {
        if (key === 'completed') folds.completed += Number(f[1]);
        else if (key === 'decisions') folds.superseded += Number(f[1]);
        continue;
      }
      items[key].push({ ...item, prov: carriedProv(item.prov, parent.id) });
    }
  }
  return { items, folds };
}

export interface Fresh extends Sections {
  /** Level-3 subsections the new session writes under Current state (they replace the parent's of the same title). */
  currentState: Subsection[];
  /** Commands the new session ran green, as shown (`npm test`). */
  passed?: readonly string[];
}

export function carryForward(
  parent: Parent | undefined,
  fresh: Fresh,
  thisFiles: readonly string[],
  pinned: readonly string[] = [],
): Living {
  const empty = {} as Sections;
  for (const key of CARRIED_KEYS) empty[key] = [];
  const { items: p, folds } = parent
    ? parentSections(parent)
    : { items: empty, folds: { completed: 0, superseded: 0 } };
  const keys = (list: readonly Item[]) => new Set(list.map((i) => itemKey(i.text)));
  // Checked items are done wherever they stand.
  const checked = [...p.in_progress, ...p.next_steps, ...fresh.in_progress, ...fresh.next_steps]
    .filter((i) => i.checked)
    .map((i) => ({ ...i, checked: false }));
  // An item the chain finished before and folded into a count is not new work.
  const visible = keys(p.completed);
  const counted = parent?.done ?? new Set<string>();
  const again = (i: Item) => counted.has(itemKey(i.text)) && !visible.has(itemKey(i.text));
  const completed = dedupe([...p.completed, ...[...checked, ...fresh.completed].filter((i) => !again(i))]);
  const done = keys(completed);
  const open = (i: Item) => !i.checked && !done.has(itemKey(i.text));
  // What the new session says about a task wins over where the parent had it.
  const freshNext = keys(fresh.next_steps);
  const inProgress = dedupe(
    [...fresh.in_progress, ...p.in_progress.filter((i) => !freshNext.has(itemKey(i.text)))].filter(open),
  );
  const nextSteps = dedupe([...p.next_steps, ...fresh.next_steps].filter(open), keys(inProgress));
  const pins = new Set(pinned.map(itemKey));
  const questions = dedupe(
    [...p.open_questions, ...fresh.open_questions].filter((i) => !i.checked && !(i.pin && pins.has(itemKey(i.text)))),
  );
  const decisions = supersede(assignIds(dedupe([...p.decisions, ...fresh.decisions])));
  const current = decisions.filter((d) => !d.supersededBy);
  const superseded = decisions.filter((d) => d.supersededBy);
  const supersededLines = fold(superseded, SUPERSEDED_KEPT, folds.superseded, parent?.id, 'superseded decisions');
  // A command that failed before and passes now was not abandoned after all.
  const green = fresh.passed ?? [];
  const tried = dedupe([...p.tried, ...fresh.tried]).filter(
    (i) => !green.some((c) => i.text.startsWith(`${c} failed`)),
  );

  const sections: Record<keyof Sections, string> = {
    completed: fold(completed, COMPLETED_KEPT, folds.completed, parent?.id, 'completed items').join('\n'),
    in_progress: inProgress.map(renderItem).join('\n'),
    next_steps: nextSteps.map(renderItem).join('\n'),
    open_questions: questions.map(renderItem).join('\n'),
    decisions: [...current.map(renderItem), ...supersededLines].join('\n'),
    tried: tried.map(renderItem).join('\n'),
  };
  const fromParent = new Set(Object.values(p).flatMap((list: Item[]) => list.map((i) => itemKey(i.text))));
  const standing = [...inProgress, ...nextSteps, ...questions, ...current, ...tried].filter((i) =>
    fromParent.has(itemKey(i.text)),
  ).length;
  const before = new Set(p.decisions.filter((d) => d.supersededBy).map((d) => d.id));
  const newlySuperseded = superseded.filter((d) => !before.has(d.id)).length;
  return {
    sections,
    carried: standing,
    superseded: newlySuperseded,
    currentState: currentStateTail(parent, fresh.currentState, thisFiles),
  };
}

/** Earlier files of the chain, the new session's notes, then the parent's notes it did not replace. */
function currentStateTail(
  parent: Parent | undefined,
  fresh: readonly Subsection[],
  thisFiles: readonly string[],
): string {
  const blocks: string[] = [];
  const now = new Set(thisFiles);
  if (parent) {
    const content = sectionContent(parent.body, TITLE.current_state);
    const parts = content === undefined ? [] : subsections(content);
    const earlier = parts.find((s) => s.title === EARLIER_FILES);
    const files: Item[] = [
      ...(earlier ? parseItems(earlier.text) : []),
      ...parent.files.map((f) => ({ text: `\`${f}\``, prov: `handoff ${shortId(parent.id)}`, checked: false })),
    ];
    const listed = dedupe(files.filter((f) => !now.has(f.text.replace(/^`+\s?|\s?`+$/g, '')))).reverse();
    // The files of the last hops are the live state; older ones fold into a count, so the
    // list follows the work in hand, not the length of the chain.
    const hops: string[] = [];
    const recent: Item[] = [];
    let older = 0;
    for (const f of listed) {
      const fold = FOLD.exec(f.text);
      if (fold) {
        older += Number(fold[1]);
        continue;
      }
      const hop = f.prov;
      if (!hops.includes(hop)) hops.push(hop);
      if (hops.indexOf(hop) < EARLIER_HOPS) recent.unshift(f);
      else older++;
    }
    const lines = fold(recent, recent.length, older, parent.id, 'files');
    if (lines.length > 0) blocks.push(`### ${EARLIER_FILES}\n\n${lines.join('\n')}`);
    blocks.push(...fresh.map(render));
    const replaced = new Set(fresh.map((s) => s.title.toLowerCase()));
    for (const s of parts) {
      if (s.title === EARLIER_FILES || replaced.has(s.title.toLowerCase()) || FILE_GROUPS.has(s.title)) continue;
      // A hand-written note keeps its words; list items get the parent's id as provenance.
      const text = s.text
        .split('\n')
        .map((line) =>
          /^[-*+] /.test(line)
            ? renderItem({ ...parseItems(line)[0]!, prov: carriedProv(parseItems(line)[0]!.prov, parent.id) })
            : line,
        )
        .join('\n');
      blocks.push(render({ title: s.title, text }));
    }
  } else {
    blocks.push(...fresh.map(render));
  }
  return blocks.filter((b) => b.trim() !== '').join('\n\n');
}

const FILE_GROUPS = new Set(['Source', 'Tests', 'Documentation', 'Configuration and build']);
const render = (s: Subsection) => (s.title ? `### ${s.title}\n\n${s.text}` : s.text);

/**
 * Folded keys of the completed items of `parent` and every handoff it continues, from
 * the handoffs given (a chain is read back from each handoff's `parent`).
 */
export function chainCompleted(
  parent: { id: string },
  handoffs: ReadonlyArray<{ meta: { id: string; parent: string | null }; body: Body }>,
): Set<string> {
  const byId = new Map(handoffs.map((h) => [h.meta.id, h]));
  const out = new Set<string>();
  const seen = new Set<string>();
  for (
    let h = byId.get(parent.id);
    h && !seen.has(h.meta.id);
    h = h.meta.parent ? byId.get(h.meta.parent) : undefined
  ) {
    seen.add(h.meta.id);
    const content = sectionContent(h.body, TITLE.completed);
    for (const item of content === undefined ? [] : parseItems(content))
      if (!FOLD.test(item.text)) out.add(itemKey(item.text));
  }
  return out;
}

/** Lines of a section as items (what a transcript or git adds to a draft). */
export function itemsOf(lines: readonly string[]): Item[] {
  return parseItems(lines.join('\n'));
}

/** The decisions a handoff holds as current (with their ids): what the next session may reverse. */
export function standingDecisions(body: Body): Array<{ id: string; text: string }> {
  const content = sectionContent(body, TITLE.decisions);
  return (content === undefined ? [] : parseItems(content))
    .filter((d) => d.id !== undefined && !d.supersededBy && !d.pin)
    .map((d) => ({ id: d.id!, text: d.text }));
}
