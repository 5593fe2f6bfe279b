// One list item of a handoff section as data: its text, where it came from, and for a
// decision its short id and what superseded it. The Markdown stays what a person reads
// and edits; this is the one place that reads it back, so a chain can carry items from
// handoff to handoff without re-summarising them.
import { inline, listItems } from './markdown.js';

export interface Item {
  text: string;
  /** Where it came from: "handoff 01jq…, transcript line 42", a commit, "todo, transcript line 7". */
  prov: string;
  checked: boolean;
  /** A pin candidate: `text` is the user's words, quoted. */
  pin?: boolean;
  /** A decision's short stable id (D1, D2, ...). */
  id?: string;
  /** The id of the decision that replaced this one. */
  supersededBy?: string;
}

const PROVENANCE =
  /transcript line \d+|\bhandoff [0-9a-z]{6,}\b|\b[0-9a-f]{7,40}\b|\btodo\b|`handoff pin`|\bconfirm or delete\b|^summary of |^written by the agent\b/;

/** The provenance of items an agent (or anyone) wrote with `new --sections`. */
export const WRITTEN_BY = 'written by the agent';
const TRAILING = /\s+\(([^()]*(?:\([^()]*\)[^()]*)*)\)$/;
const PIN = /^Pin candidate \(([^)]*)\): (.*)$/;
const DECISION = /^(D\d+): (.*)$/;
const SUPERSEDED = /^~~(D\d+): (.*)~~ \(superseded by (D\d+)(?:; (.*))?\)$/;

export function parseItem(raw: string, checked = false): Item {
  const text = raw.trim();
  const sup = SUPERSEDED.exec(text);
  if (sup) return { id: sup[1]!, text: sup[2]!, supersededBy: sup[3]!, prov: sup[4] ?? '', checked };
  const pin = PIN.exec(text);
  if (pin) return { text: pin[2]!, prov: pin[1]!, checked, pin: true };
  const dec = DECISION.exec(text);
  const rest = dec ? dec[2]! : text;
  const trail = TRAILING.exec(rest);
  const item: Item =
    trail && PROVENANCE.test(trail[1]!)
      ? { text: rest.slice(0, trail.index), prov: trail[1]!, checked }
      : { text: rest, prov: '', checked };
  if (dec) item.id = dec[1]!;
  return item;
}

export function parseItems(content: string): Item[] {
  return listItems(content)
    .filter((i) => i.text !== '')
    .map((i) => parseItem(i.text, i.checked));
}

export function renderItem(item: Item): string {
  const prov = item.prov ? ` (${item.prov})` : '';
  if (item.pin) return `- Pin candidate (${item.prov || 'carried'}): ${inline(item.text)}`;
  if (item.id && item.supersededBy)
    return `- ~~${item.id}: ${inline(item.text)}~~ (superseded by ${item.supersededBy}${item.prov ? `; ${item.prov}` : ''})`;
  return `- ${item.id ? `${item.id}: ` : ''}${inline(item.text)}${prov}`;
}

/** The text two items share when they say the same thing: case, quotes, punctuation and spacing folded. */
export function itemKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[`"'“”‘’*_~]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Ids are shown by their first 12 characters: enough to find the file, short enough to repeat. */
export const shortId = (id: string) => id.slice(0, 12);

/** The provenance an item carried from `parentId` keeps: the handoff is named once, first. */
export function carriedProv(given: string, parentId: string): string {
  // Once a handoff is saved its items were reviewed: "confirm or delete" has been answered.
  // The decision it superseded is marked in the parent already; the marker has done its work.
  const prov = given.replace(
    /^extracted from (transcript line \d+)(?:; supersedes D\d+(?:, D\d+)*)?; confirm or delete$/,
    '$1',
  );
  if (/\bhandoff [0-9a-z]{6,}\b/.test(prov)) return prov;
  if (prov === '' || /transcript line|confirm or delete|`handoff pin`|\btodo\b/.test(prov))
    return prov ? `handoff ${shortId(parentId)}, ${prov}` : `handoff ${shortId(parentId)}`;
  return prov;
}
