// Decisions across a chain: each keeps a short stable id (D1, D2, ...) and its provenance,
// and a later decision that replaces an earlier one marks it superseded instead of both
// standing as current. Supersession is explicit ("supersedes D2", written by a person or
// the model) or follows a deterministic rule for the common phrasings ("instead of X",
// "rather than X", "drop X", "switch from X", "no longer X", "replace X", "moving off X",
// "scrap/abandon/ditch X", "not use X after all", "no more X", "swap X", "~~X~~") when X names
// the subject of an earlier, still current decision.
import { itemKey, type Item } from '../store/items.js';

const MARKER = /\b(?:supersedes|replaces|overrides)\s+(D\d+)\b/gi;
// The word after the phrase is the subject the newer decision turns away from. Each phrasing
// comes with the words it starts with: a text holding none of them cannot match it, and its
// pattern (Unicode classes, costly to compile) is not run; most runs of `new` never need one.
const PHRASES: ReadonlyArray<[starts: readonly string[], pattern: RegExp]> = [
  [['instead of'], /\binstead of\s+(?:using\s+|the\s+|a\s+|an\s+)*([\p{L}\p{N}][\p{L}\p{N}._/-]*)/iu],
  [['rather than'], /\brather than\s+(?:using\s+|the\s+|a\s+|an\s+)*([\p{L}\p{N}][\p{L}\p{N}._/-]*)/iu],
  [['drop'], /\bdrop(?:s|ped|ping)?\s+(?:the\s+|a\s+|an\s+)*([\p{L}\p{N}][\p{L}\p{N}._/-]*)/iu],
  [['switch'], /\bswitch(?:es|ed|ing)?\s+(?:away\s+)?from\s+(?:the\s+|a\s+|an\s+)*([\p{L}\p{N}][\p{L}\p{N}._/-]*)/iu],
  [
    ['no longer'],
    /\bno longer\s+(?:use\s+|using\s+|need\s+|call\s+|support\s+|write\s+|keep\s+|the\s+)*([\p{L}\p{N}][\p{L}\p{N}._/-]*)/iu,
  ],
  [['replac'], /\breplac(?:e|es|ed|ing)\s+(?:the\s+|a\s+|an\s+)*([\p{L}\p{N}][\p{L}\p{N}._/-]*)/iu],
  // Moving off, giving up, or swapping out what was chosen.
  [
    ['mov', 'migrat'],
    /\b(?:mov|migrat)(?:e|es|ed|ing)\s+(?:away\s+)?(?:off|from)\s+(?:the\s+|a\s+|an\s+)*([\p{L}\p{N}][\p{L}\p{N}._/-]*)/iu,
  ],
  [
    ['abandon', 'scrap', 'ditch', 'forget'],
    /\b(?:abandon(?:s|ed|ing)?|scrap(?:s|ped|ping)?|ditch(?:es|ed|ing)?|forget(?:\s+about)?)\s+(?:the\s+|a\s+|an\s+)*([\p{L}\p{N}][\p{L}\p{N}._/-]*)/iu,
  ],
  [['not'], /\bnot\s+(?:use|using)\s+(?:the\s+)*([\p{L}\p{N}][\p{L}\p{N}._/-]*)\s+(?:after all|any ?more)/iu],
  [['no more'], /\bno more\s+(?:the\s+)*([\p{L}\p{N}][\p{L}\p{N}._/-]*)/iu],
  [['swap'], /\bswap(?:s|ped|ping)?\s+(?:out\s+)?(?:the\s+|a\s+|an\s+)*([\p{L}\p{N}][\p{L}\p{N}._/-]*)/iu],
  [['~~'], /~~\s*([\p{L}\p{N}][\p{L}\p{N}._/-]*)/iu],
];
const VAGUE = new Set([
  'it',
  'this',
  'that',
  'them',
  'those',
  'these',
  'everything',
  'anything',
  'something',
  'all',
  'one',
  'what',
  'and',
  'or',
  'to',
  'of',
  'in',
  'on',
  'for',
  'with',
]);

/** What a decision turns away from, as folded words, by the phrasing rule. */
export function replacedSubjects(text: string): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  for (const [starts, phrase] of PHRASES) {
    if (!starts.some((word) => lower.includes(word))) continue;
    const m = phrase.exec(text);
    const subject = m ? itemKey(m[1]!) : '';
    if (subject !== '' && !VAGUE.has(subject)) out.push(subject);
  }
  return out;
}

/** Gives every decision without an id the next free one, in order. */
export function assignIds(decisions: readonly Item[]): Item[] {
  let next = Math.max(0, ...decisions.map((d) => Number(d.id?.slice(1) ?? 0))) + 1;
  return decisions.map((d) => (d.id ? d : { ...d, id: `D${next++}` }));
}

/**
 * Marks each decision a later one replaces. Decisions are in chain order, oldest first.
 * A decision never supersedes itself or a later one, and one that turns away from the
 * same subject in the same words is agreeing, not replacing.
 */
export function supersede(decisions: readonly Item[]): Item[] {
  const out = decisions.map((d) => ({ ...d }));
  const byId = new Map(out.map((d, i) => [d.id, i]));
  // Each decision's words and subjects once, not once per later decision that asks.
  const subjects = out.map((d) => replacedSubjects(d.text));
  const words = out.map((d) => ` ${itemKey(d.text)} `);
  for (let i = 0; i < out.length; i++) {
    const newer = out[i]!;
    if (newer.supersededBy) continue;
    for (const m of `${newer.text} ${newer.prov}`.matchAll(MARKER)) {
      const j = byId.get(m[1]!.toUpperCase());
      if (j !== undefined && j < i && !out[j]!.supersededBy) out[j]!.supersededBy = newer.id!;
    }
    for (const subject of subjects[i]!) {
      for (let j = 0; j < i; j++) {
        const older = out[j]!;
        if (older.supersededBy || !words[j]!.includes(` ${subject} `) || subjects[j]!.includes(subject)) continue;
        older.supersededBy = newer.id!;
      }
    }
  }
  return out;
}
