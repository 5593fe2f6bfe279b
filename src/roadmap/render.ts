// ROADMAP.md: what a person or an agent reads first. A pure function of the parsed
// .handoff/ tree and the roadmap's own path: no clock, no branch, no commit count, and
// every list sorted by id, so the same files give the same bytes on every machine and
// the file can be regenerated during a merge.
import { posix } from 'node:path';
import type { Handoff } from '../store/handoff.js';
import { code, inline, pinBlock, plural, sectionContent, sectionText } from '../store/markdown.js';
import { activePins } from '../store/pin-scope.js';
import { fill } from '../store/template.js';
import { ROADMAP_KEYS, TITLE, type SectionKey } from '../store/sections.js';
import type { Tree } from '../store/tree.js';
import { prefixLookup, prefixLookupIn, type Place } from '../store/id.js';

/** Finished and superseded handoffs listed one line each; older ones are counted. */
export const RECENT = 20;
const MAX_CHAIN = 8;
/** How many links of a chain the roadmap may look up (store/history-view.ts reads that many ancestors). */
export const CHAIN_LOOKUPS = MAX_CHAIN + 2;

function section(h: Handoff, key: SectionKey): string {
  return sectionText(sectionContent(h.body, TITLE[key]) ?? '');
}

/** `a` <- `b` <- `c`: the handoff and its ancestors, stopping at a missing link or a cycle. */
export function chain(h: Handoff, byId: ReadonlyMap<string, Handoff>, short: (id: string) => string): string {
  const parts = [code(short(h.meta.id))];
  const seen = new Set([h.meta.id]);
  let parent = h.meta.parent;
  while (parent) {
    if (seen.has(parent)) {
      parts.push('(cycle)');
      break;
    }
    if (parts.length > MAX_CHAIN) {
      parts.push('...');
      break;
    }
    seen.add(parent);
    const next = byId.get(parent);
    parts.push(next ? code(short(parent)) : `${code(short(parent))} (missing)`);
    if (!next) break;
    parent = next.meta.parent;
  }
  return parts.join(' <- ');
}

/**
 * `history`, when the tree holds only the handoffs shown (store/history-view.ts): every id, for
 * the short ids, and how many handoffs are finished; the tree gives both otherwise.
 */
export function renderRoadmap(
  template: string,
  tree: Tree,
  roadmapPath: string,
  history?: { ids: ReadonlyArray<(id: string) => Place>; finished: number },
): string {
  const shortIds = history
    ? prefixLookupIn(history.ids)
    : prefixLookup([...tree.handoffs, ...tree.pins].map((i) => i.meta.id));
  const short = (id: string) => shortIds(id) ?? id.slice(0, 8);
  const link = (file: string) => posix.relative(posix.dirname(roadmapPath), file);
  const byId = new Map(tree.handoffs.map((h) => [h.meta.id, h]));
  const newestFirst = [...tree.handoffs].reverse();
  const open = newestFirst.filter((h) => h.meta.status === 'open');
  const finished = newestFirst.filter((h) => h.meta.status !== 'open');
  const pins = activePins(tree.pins);

  const branches = new Map<string, Handoff[]>();
  for (const h of open) {
    const key = h.meta.branch ?? '';
    branches.set(key, [...(branches.get(key) ?? []), h]);
  }
  const openText = [...branches.entries()]
    .map(([branch, list]) => {
      const title = branch ? `### Branch ${code(branch)}` : '### Detached HEAD';
      return [title, ...list.map((h) => renderOpen(h, short, link, byId))].join('\n\n');
    })
    .join('\n\n');

  const lines = finished.slice(0, RECENT).map((h) => {
    const when = h.meta.status === 'done' && h.meta.finished ? ` ${h.meta.finished.slice(0, 10)}` : '';
    const by = h.meta.superseded_by ? ` by ${code(short(h.meta.superseded_by))}` : '';
    return `- ${h.meta.status}${when}${by}: [${inline(h.meta.goal)}](${link(h.file)}) (${h.meta.branch ? code(h.meta.branch) : 'detached'}); chain ${chain(h, byId, short)}`;
  });
  const finishedCount = history?.finished ?? finished.length;
  if (finishedCount > RECENT)
    lines.push(`- ... and ${plural(finishedCount - RECENT, 'older handoff')} (\`handoff list\`)`);

  const summary = `${plural(open.length, 'open handoff')} on ${branches.size} ${branches.size === 1 ? 'branch' : 'branches'}, ${plural(pins.length, 'active pin')}, ${finishedCount} finished or superseded.`;
  return fill(template, {
    summary,
    pins:
      pins.length === 0
        ? 'No active pins. Record one with `handoff pin "<constraint>"`.'
        : pins.map((p) => pinBlock(code(short(p.meta.id)), p.text, p.meta.scope)).join('\n\n'),
    open: open.length === 0 ? 'No open handoffs. Start one with `handoff new "<goal>"`.' : openText,
    history: lines.length === 0 ? 'Nothing finished yet.' : lines.join('\n'),
    resume:
      'A fresh agent session starts from `handoff resume` (the newest open handoff on the current branch) or `handoff resume <id>`; it prints the pins and the handoff, and what git says has changed since.',
  });
}

/** "Name <email>" -> "Name": an address in angle brackets would render as a link or vanish as HTML. */
function authorName(author: string): string {
  return inline(author)
    .replace(/\s*<[^>]*>$/, '')
    .replace(/[<>]/g, '');
}

function renderOpen(
  h: Handoff,
  short: (id: string) => string,
  link: (file: string) => string,
  byId: ReadonlyMap<string, Handoff>,
): string {
  const parts = [
    `#### ${inline(h.meta.goal) || '(no goal)'}`,
    `[${code(short(h.meta.id))}](${link(h.file)}), written ${h.meta.created.slice(0, 10)}${authorName(h.meta.author) ? ` by ${authorName(h.meta.author)}` : ''}${h.meta.parent ? `; chain ${chain(h, byId, short)}` : ''}`,
  ];
  // An open handoff shows what comes next and what is undecided; the file has the rest.
  for (const key of ROADMAP_KEYS) {
    const text = section(h, key);
    if (text) parts.push(`**${TITLE[key]}**\n\n${text}`);
  }
  return parts.join('\n\n');
}
