// Handoff and pin files written directly (fixed ids and times), for tests that need a
// particular tree rather than the one the commands would make.
import { serializeHandoff, type HandoffMeta } from '../src/store/handoff.js';
import { serializePin, type PinMeta } from '../src/store/pin.js';

/** A valid id whose first characters order it: id(1) < id(2) < ... */
export function id(n: number, tail = 'abcdefghjk'): string {
  return `01jx${String(n).padStart(12, '0')}${tail}`;
}

export function handoffText(
  meta: Partial<HandoffMeta> & { id: string },
  body = '## Goal\n\nwork\n\n## Next steps\n\n- do the next thing\n',
): string {
  return serializeHandoff(
    {
      goal: `goal of ${meta.id.slice(-4)}`,
      status: 'open',
      created: '2026-01-05T10:00:00.000Z',
      author: 'Test Author <author@example.com>',
      branch: 'main',
      base: null,
      head: null,
      parent: null,
      files: [],
      ...meta,
    },
    body,
  );
}

export function pinText(meta: Partial<PinMeta> & { id: string }, text: string): string {
  return serializePin(
    { created: '2026-01-05T10:00:00.000Z', author: 'Test Author <author@example.com>', status: 'active', ...meta },
    text,
  );
}

export const handoffPath = (i: string) => `.handoff/handoffs/${i}.md`;
export const pinPath = (i: string) => `.handoff/pins/${i}.md`;
