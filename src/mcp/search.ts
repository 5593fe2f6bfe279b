// Search over past handoffs, pure: every word of the query (case-insensitive) in the goal or
// body, newest first, each marked with what superseded it so an agent never takes a replaced
// handoff's decisions for current ones.
import type { Handoff } from '../store/handoff.js';

export interface Hit {
  id: string;
  goal: string;
  status: string;
  created: string;
  file: string;
  /** The handoff that replaced this one, when one did. */
  superseded_by: string | null;
  /** Up to three lines that hold a word of the query. */
  lines: string[];
}

const MAX_LINES = 3;

export function searchHandoffs(handoffs: readonly Handoff[], query: string, limit = 10): Hit[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  if (words.length === 0) return [];
  return handoffs
    .filter((h) => {
      const text = `${h.meta.goal}\n${h.bodyText}`.toLowerCase();
      return words.every((w) => text.includes(w));
    })
    .sort((a, b) => b.meta.created.localeCompare(a.meta.created) || b.meta.id.localeCompare(a.meta.id))
    .slice(0, limit)
    .map((h) => ({
      id: h.meta.id,
      goal: h.meta.goal,
      status: h.meta.status,
      created: h.meta.created,
      file: h.file,
      superseded_by: h.meta.superseded_by ?? null,
      lines: h.bodyText
        .split('\n')
        .filter((l) => words.some((w) => l.toLowerCase().includes(w)))
        .slice(0, MAX_LINES)
        .map((l) => l.trim()),
    }));
}

/** A hit as the agent reads it: one line, then the matching lines. */
export function renderHit(hit: Hit): string {
  const state = hit.superseded_by ? `superseded by ${hit.superseded_by}; read that one for current state` : hit.status;
  return [
    `- ${hit.id} (${hit.created.slice(0, 10)}, ${state}): ${hit.goal} [${hit.file}]`,
    ...hit.lines.map((l) => `    ${l}`),
  ].join('\n');
}
