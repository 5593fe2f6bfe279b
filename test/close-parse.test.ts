// `check` closing landed handoffs takes what each rewritten file parses to from the YAML
// document it just changed (updateHandoffParsed) instead of parsing the file again: here
// that is checked to be exactly parseHandoff of the text written, over generated
// handoffs (seeded) and hand-written front-matters a person could have edited.
import { describe, expect, it } from 'vitest';
import {
  type Handoff,
  type HandoffMeta,
  parseHandoff,
  serializeHandoff,
  updateHandoff,
  updateHandoffParsed,
} from '../src/store/handoff.js';
import { id } from './fixtures-items.js';
import { prng } from './reliability/fuzz.js';

const GOALS = [
  'add team billing',
  'a: b # c --- \' " | \n---\n- leading dash 😀',
  '123',
  'true',
  'null',
  '  spaces around  ',
  '- [ ] looks like a list',
  'line one\nline two',
];
const HEX = '0123456789abcdef';

function generated(n: number, next: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const hex = (len: number, digits = HEX) => Array.from({ length: len }, () => pick([...digits])).join('');
  const maybe = <T>(v: T): T | undefined => (next() < 0.5 ? v : undefined);
  const files = Array.from({ length: Math.floor(next() * 4) }, (_, i) => ({
    path: `src/f${n}-${i}.ts`,
    change: pick(['added', 'modified', 'deleted'] as const),
    state: pick(['committed', 'staged', 'unstaged'] as const),
  }));
  const step = maybe(pick(GOALS));
  const superseded = maybe(id(n + 1));
  const finished = maybe('2026-02-01T00:00:00.000Z');
  const landed = maybe(hex(40));
  const meta: HandoffMeta = {
    id: id(n),
    goal: pick(GOALS),
    ...(step !== undefined ? { step } : {}),
    status: pick(['open', 'open', 'done', 'superseded'] as const),
    created: '2026-01-05T10:00:00.000Z',
    author: pick(['', 'Ann <ann@example.com>', 'O\'Neil "the" dev']),
    branch: pick([null, 'main', 'feature/x', '1234', 'yes']),
    base: maybe(hex(40)) ?? null,
    head: maybe(hex(12, '0123456789')) ?? null,
    parent: maybe(id(n - 1)) ?? null,
    ...(superseded !== undefined ? { superseded_by: superseded } : {}),
    ...(finished !== undefined ? { finished } : {}),
    ...(landed !== undefined ? { landed } : {}),
    files,
  };
  return serializeHandoff(meta, pick(['', '## Goal\n\nwork\n', '## Next steps\n\n- one\n- two\n\n---\n\ntrailer\n']));
}

/** Front-matters as a person leaves them: comments, quoting, order, unknown keys, blank lines. */
const EDITED = [
  `---
# kept by the team
id: "${id(900)}"
goal: ship it   # inline comment
status: open
created: "2026-01-05T10:00:00.000Z"
extra: {a: 1, b: [x, y]}
branch: 'feature/y'
files:
  - path: src/a.ts
    change: modified
    state: committed
    insertions: 3
---
## Goal

edited by hand
`,
  `---
status: "open"
id: ${id(901)}
goal: >-
  folded
  goal
created: '2026-01-05T10:00:00.000Z'
finished: "2025-12-31T00:00:00.000Z"
landed: "0000000"

author: null
---
`,
  `---
id: ${id(902)}
goal: "x"
status: open
created: "2026-01-05T10:00:00.000Z"
step: |
  literal
  step
landed: ~
finished:
---
body without a heading
`,
];

const CHANGES: ReadonlyArray<Partial<HandoffMeta>> = [
  { status: 'done', finished: '2026-11-22T22:21:12.000Z', landed: 'c720c1bf5ecb0d1ad8b0a6e3f9bd1f0d4c1e2a77' },
  // A commit id of digits only: written quoted, read back as a string.
  { status: 'done', finished: '2026-11-22T22:21:12.000Z', landed: '1234567890123456789012345678901234567890' },
  { status: 'open', finished: undefined, landed: undefined },
];

/** What the cache keeps of a parse (tree.ts, parseOne): the meta, in its key order, and the body text. */
function kept(h: Handoff): string {
  return JSON.stringify({ file: h.file, meta: h.meta, bodyText: h.bodyText });
}

describe('updateHandoffParsed', () => {
  const next = prng(28);
  const texts = [...Array.from({ length: 400 }, (_, i) => generated(i + 2, next)), ...EDITED];

  it('gives the text updateHandoff gives, and exactly what parsing that text gives', () => {
    let compared = 0;
    for (const [i, text] of texts.entries()) {
      for (const changes of CHANGES) {
        const file = `.handoff/handoffs/h${i}.md`;
        const { text: written, parsed } = updateHandoffParsed(parseHandoff(text, file), changes);
        expect(written).toBe(updateHandoff(parseHandoff(text, file), changes));
        expect(parsed, written).toBeDefined();
        expect(kept(parsed!)).toBe(kept(parseHandoff(written, file)));
        expect(parsed!.body).toEqual(parseHandoff(written, file).body);
        compared++;
      }
    }
    expect(compared).toBe(texts.length * CHANGES.length);
  });

  it('gives no parse when the change does not validate, as parsing the text would refuse it', () => {
    const file = '.handoff/handoffs/bad.md';
    const { text, parsed } = updateHandoffParsed(parseHandoff(texts[0]!, file), { landed: '--output=x' });
    expect(parsed).toBeUndefined();
    expect(() => parseHandoff(text, file)).toThrow(/landed/);
  });
});
