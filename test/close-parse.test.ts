// `check` closing landed handoffs takes what each rewritten file parses to from the YAML
// document it just changed (updateHandoffParsed) instead of parsing the file again: here
// that is checked to be exactly parseHandoff of the text written, over generated
// handoffs (seeded) and hand-written front-matters a person could have edited. A file in
// the form the tool writes is closed as text (closedPlain), with the same bytes and parse.
import { describe, expect, it } from 'vitest';
import {
  type Handoff,
  type HandoffMeta,
  parseHandoff,
  serializeHandoff,
  updateHandoff,
  updateHandoffParsed,
} from '../src/store/handoff.js';
import { closedPlain } from '../src/store/plain-front-matter.js';
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

/** Written by the tool with every kind of listed file, an empty list, and the optional keys. */
const WRITTEN: readonly HandoffMeta[] = [
  {
    id: id(950),
    goal: "a: b # c 'quoted' [list] {map} - dash",
    step: 'the step',
    status: 'open',
    created: '2026-01-05T10:00:00.000Z',
    author: '',
    branch: 'feature/x',
    base: 'c720c1bf5ecb',
    head: '1234567',
    parent: id(949),
    superseded_by: id(951),
    files: [
      { path: 'src/new.ts', change: 'renamed', from: 'src/old.ts', insertions: 0, deletions: 12, state: 'committed' },
      { path: 'logo.png', change: 'added', binary: true, state: 'staged' },
      { path: 'vendor/', change: 'added', files: 3000, state: 'untracked' },
    ],
  },
  {
    id: id(952),
    goal: 'nothing listed',
    status: 'open',
    created: '2026-01-05T10:00:00.000Z',
    author: 'Ann <ann@example.com>',
    branch: null,
    base: null,
    head: null,
    parent: null,
    files: [],
  },
];

describe('closedPlain', () => {
  const next = prng(29);
  const texts = [
    ...Array.from({ length: 400 }, (_, i) => generated(i + 2, next)),
    ...WRITTEN.map((meta) => serializeHandoff(meta, '## Goal\n\nwork\n')),
    ...EDITED,
  ];
  const closing = CHANGES.filter((c) => c.status === 'done') as Array<{ finished: string; landed: string }>;

  it('closes a file in the form the tool writes as updateHandoffParsed does, and leaves any other to it', () => {
    let plain = 0;
    for (const [i, text] of texts.entries()) {
      const file = `.handoff/handoffs/h${i}.md`;
      const read = parseHandoff(text, file);
      for (const changes of closing) {
        const got = closedPlain(text, file, read.meta, changes.finished, changes.landed);
        if (i >= texts.length - EDITED.length || read.meta.status !== 'open') expect(got).toBeUndefined();
        if (got === undefined) continue;
        const full = updateHandoffParsed(parseHandoff(text, file), { status: 'done', ...changes });
        expect(got.text).toBe(full.text);
        expect(kept(got.parsed)).toBe(kept(full.parsed!));
        expect(kept(got.parsed)).toBe(kept(parseHandoff(got.text, file)));
        expect(got.parsed.body).toEqual(parseHandoff(got.text, file).body);
        plain++;
      }
    }
    // The open ones with no finished or landed key whose strings need no escape (two changes each).
    expect(plain).toBeGreaterThan(40);
    for (const meta of WRITTEN)
      expect(
        closedPlain(serializeHandoff(meta, ''), 'f.md', meta, '2026-11-22T22:21:12.000Z', 'c720c1b'),
      ).toBeDefined();
  });

  it('goes through the YAML document when the file is not what the front-matter read says', () => {
    const meta = WRITTEN[1]!;
    const text = serializeHandoff(meta, 'body\n');
    const close = (t: string, m: HandoffMeta = meta) =>
      closedPlain(t, 'f.md', m, '2026-11-22T22:21:12.000Z', 'c720c1b');
    expect(close(text)).toBeDefined();
    // Edited since it was read, or read as something else.
    expect(close(text.replace('nothing listed', 'nothing listed!'))).toBeUndefined();
    expect(close(text, { ...meta, goal: 'another goal' })).toBeUndefined();
    // Line ends, spacing and quoting the YAML document would write back otherwise.
    expect(close(text.replaceAll('\n', '\r\n'))).toBeUndefined();
    expect(close(text.replace('goal: "nothing listed"', "goal: 'nothing listed'"))).toBeUndefined();
    expect(close(text.replace('branch: null', 'branch: ~'))).toBeUndefined();
    expect(close(text.replace('files: []\n', 'files: []\n# a comment\n'))).toBeUndefined();
    // Values the quoted form escapes, or a landed commit that would not validate.
    expect(closedPlain(text, 'f.md', meta, '2026-11-22T22:21:12.000Z', '--output=x')).toBeUndefined();
    const quoted = { ...meta, goal: 'say "hi"' };
    expect(close(serializeHandoff(quoted, ''), quoted)).toBeUndefined();
    // Already closed.
    const done = { ...meta, status: 'done' as const };
    expect(close(serializeHandoff(done, ''), done)).toBeUndefined();
  });
});
