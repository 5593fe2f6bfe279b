// `check` closing landed handoffs takes what each rewritten file parses to from the YAML
// document it just changed (updateHandoffParsed) instead of parsing the file again: here
// that is checked to be exactly parseHandoff of the text written, over generated
// handoffs (seeded) and hand-written front-matters a person could have edited. A file in
// the form the tool writes is closed as text (closedPlain), with the same bytes and parse,
// and read as text (plainHandoff, plainPin), with the same parse or none, never another.
import { describe, expect, it } from 'vitest';
import {
  type FileChange,
  type Handoff,
  type HandoffMeta,
  parseHandoff,
  serializeHandoff,
  updateHandoff,
  updateHandoffParsed,
} from '../src/store/handoff.js';
import { changedPlain, plainHandoff, plainPin, plainText } from '../src/store/plain-front-matter.js';
import { type PinMeta, parsePin, retirePin, serializePin } from '../src/store/pin.js';
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

/** An open handoff closed as landed as text, as `check` and the post-merge hook close it (store/change-open.ts). */
const closedPlain = (text: string, file: string, meta: HandoffMeta, finished: string, landed: string) =>
  changedPlain(text, file, meta, 'done', [
    ['finished', finished],
    ['landed', landed],
  ]);

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

  it('supersedes a file in the form the tool writes as updateHandoffParsed does (`new` on its parent)', () => {
    let plain = 0;
    for (const [i, text] of texts.entries()) {
      const file = `.handoff/handoffs/h${i}.md`;
      const read = parseHandoff(text, file);
      const got = changedPlain(text, file, read.meta, 'superseded', [['superseded_by', id(999)]]);
      if (read.meta.status !== 'open' || read.meta.superseded_by !== undefined) expect(got).toBeUndefined();
      if (got === undefined) continue;
      const full = updateHandoffParsed(read, { status: 'superseded', superseded_by: id(999) });
      expect(got.text).toBe(full.text);
      expect(kept(got.parsed)).toBe(kept(parseHandoff(got.text, file)));
      plain++;
    }
    expect(plain).toBeGreaterThan(20);
  });

  it('writes what serializeHandoff writes, when every value is plain', () => {
    const next = prng(33);
    let plain = 0;
    for (let n = 0; n < 400; n++) {
      const read = parseHandoff(generated(n + 2, next), 'f.md');
      const got = plainText(read.meta, read.bodyText);
      if (got === undefined) continue;
      expect(got).toBe(serializeHandoff(read.meta, read.bodyText));
      plain++;
    }
    expect(plain).toBeGreaterThan(100);
    for (const meta of WRITTEN) expect(plainText(meta, 'body\n')).toBe(serializeHandoff(meta, 'body\n'));
    expect(plainText({ ...WRITTEN[1]!, goal: 'say "hi"' }, '')).toBeUndefined();
    expect(plainText({ ...WRITTEN[1]!, goal: 'déjà vu' }, '')).toBeUndefined();
    // Values the library writes otherwise: negative zero, a listed file with no key.
    const zero = { ...WRITTEN[0]!, files: [{ ...WRITTEN[0]!.files[0]!, insertions: -0 }] };
    expect(serializeHandoff(zero, '')).toContain('insertions: -0');
    expect(plainText(zero, '')).toBeUndefined();
    expect(plainText({ ...WRITTEN[0]!, files: [{} as FileChange] }, '')).toBeUndefined();
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

/**
 * What a plain reader must give for a text: exactly what the library's parse gives (as
 * `shape` keeps it), or nothing; nothing when the library refuses it.
 */
function readsAsLibrary<P, F>(
  text: string,
  plain: (text: string) => P | undefined,
  library: (text: string) => F,
  shape: (read: P | F) => unknown,
): 'plain' | 'yaml' {
  const got = plain(text);
  let full: F;
  try {
    full = library(text);
  } catch {
    expect(got, text).toBeUndefined();
    return 'yaml';
  }
  if (got === undefined) return 'yaml';
  expect(JSON.stringify(shape(got)), text).toBe(JSON.stringify(shape(full)));
  return 'plain';
}

/** plainHandoff against parseHandoff: the meta (with its key order) and the body. */
const readsAsYaml = (text: string, file: string) =>
  readsAsLibrary(
    text,
    (t) => plainHandoff(t, file),
    (t) => parseHandoff(t, file),
    (h) => ({ meta: h.meta, bodyText: h.bodyText }),
  );

/** plainPin against parsePin: the meta and the text. */
const pinReadsAsYaml = (text: string, file: string) =>
  readsAsLibrary(
    text,
    (t) => plainPin(t, file),
    (t) => parsePin(t, file),
    (p) => ({ meta: p.meta, text: p.text }),
  );

/** `count` random one-character edits (insert, delete, replace) of the front-matters of `texts`. */
function oneCharEdits(texts: readonly string[], seed: number, count: number): string[] {
  const rand = prng(seed);
  const CHARS = ' "\'#:-\\\n\t0a_[{~|>!&*%@`';
  return Array.from({ length: count }, (_, n) => {
    const text = texts[n % texts.length]!;
    const end = text.indexOf('\n---\n', 4);
    const at = 4 + Math.floor(rand() * (end - 4));
    const c = CHARS[Math.floor(rand() * CHARS.length)]!;
    const kind = rand();
    return kind < 0.4
      ? text.slice(0, at) + c + text.slice(at)
      : kind < 0.7
        ? text.slice(0, at) + text.slice(at + 1)
        : text.slice(0, at) + c + text.slice(at + 1);
  });
}

describe('plainHandoff', () => {
  const next = prng(30);
  const texts = [
    ...Array.from({ length: 400 }, (_, i) => generated(i + 2, next)),
    ...WRITTEN.map((meta) => serializeHandoff(meta, '## Goal\n\nwork\n')),
  ];

  it("reads what the tool writes as the YAML library does, and leaves a person's edits to it", () => {
    expect(readsAsYaml(texts.at(-1)!, 'f.md')).toBe('plain');
    const ways = texts.map((text, i) => readsAsYaml(text, `.handoff/handoffs/h${i}.md`));
    // Those whose strings need no escape: most of them.
    expect(ways.filter((w) => w === 'plain').length).toBeGreaterThan(150);
    expect(ways.slice(-WRITTEN.length)).toEqual(WRITTEN.map(() => 'plain'));
    for (const [i, text] of EDITED.entries()) {
      expect(plainHandoff(text, `e${i}.md`)).toBeUndefined();
      expect(readsAsYaml(text, `e${i}.md`)).toBe('yaml');
    }
  });

  it("reads the files the tool's own edits leave, keys added after the files, and any order of the keys", () => {
    const edited = WRITTEN.flatMap((meta) => {
      const read = parseHandoff(serializeHandoff({ ...meta, superseded_by: undefined }, 'body\n'), 'f.md');
      return CHANGES.map((changes) => updateHandoff(read, changes)).concat(
        updateHandoff(read, { status: 'superseded', superseded_by: id(999) }),
      );
    });
    expect(edited.some((t) => /\n {4}state: .*\nsuperseded_by: /.test(t))).toBe(true);
    expect(edited.some((t) => /\nfinished: .*\nlanded: .*\n---/.test(t))).toBe(true);
    for (const text of edited) expect(readsAsYaml(text, 'f.md'), text).toBe('plain');
    // A key the tool does not write is the library's to read (validateMeta reads past it).
    expect(readsAsYaml(edited[0]!.replace('created: ', 'extra: 1\ncreated: '), 'f.md')).toBe('yaml');
    expect(readsAsYaml(edited[0]!.replace('created: ', '__proto__: null\ncreated: '), 'f.md')).toBe('yaml');
    expect(readsAsYaml(edited[0]!.replace('created: ', 'files: null\ncreated: '), 'f.md')).toBe('yaml');
    const rand = prng(32);
    for (const [n, text] of texts.entries()) {
      const end = text.indexOf('\n---\n', 4);
      // Top-level keys shuffled, the files' list kept under its key.
      const lines = text.slice(4, end).split(/\n(?! )/);
      for (let i = lines.length - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1));
        [lines[i], lines[j]] = [lines[j]!, lines[i]!];
      }
      const shuffled = `---\n${lines.join('\n')}${text.slice(end)}`;
      expect(readsAsYaml(shuffled, `s${n}.md`)).toBe(readsAsYaml(text, `t${n}.md`));
    }
  });

  it('gives no other parse than the library for any edit of a written front-matter', () => {
    const written = WRITTEN.map((meta) => serializeHandoff(meta, 'body\n'));
    const edits: Array<(t: string) => string> = [
      (t) => t.replaceAll('\n', '\r\n'),
      (t) => t.replace('goal: "', "goal: '").replace(/(goal: '[^"]*)"/, "$1'"),
      (t) => t.replace('branch: ', 'branch:  '),
      (t) => t.replace('status: "open"', 'status: open'),
      (t) => t.replace('status: "open"', 'status: "closed"'),
      (t) => t.replace('status: "open"', 'status: "open"\nstatus: "done"'),
      (t) => t.replace('head: ', '# note\nhead: '),
      (t) => t.replace(/head: .*/, 'head: "--output=x"'),
      (t) => t.replace('insertions: 0', 'insertions: 00'),
      (t) => t.replace('insertions: 0', 'insertions: -1'),
      (t) => t.replace('binary: true', 'binary: false'),
      (t) => t.replace('files: 3000', 'files: 3e3'),
      (t) => t.replace('    change: "added"\n    files', '    files'),
      (t) => t.replace('  - path: "logo.png"', '  -  path: "logo.png"'),
      (t) => t.replace('files: []', 'files:'),
      (t) => t.replace('path: "src/new.ts"', 'path: "../outside.ts"'),
    ];
    let compared = 0;
    for (const text of written)
      for (const edit of edits) {
        const edited = edit(text);
        if (edited === text) continue;
        expect(readsAsYaml(edited, 'e.md'), edited).toBe('yaml');
        compared++;
      }
    expect(compared).toBeGreaterThan(edits.length);
    // Random one-character edits of the front-matter: read as the library reads them, or left to it.
    const ways = { plain: 0, yaml: 0 };
    for (const edited of oneCharEdits(written, 31, 2000)) ways[readsAsYaml(edited, 'f.md')]++;
    // Some edits keep the form (a letter in a goal); most do not.
    expect(ways.plain).toBeGreaterThan(0);
    expect(ways.yaml).toBeGreaterThan(ways.plain);
  });
});

describe('plainPin', () => {
  const next = prng(34);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const metas: PinMeta[] = Array.from({ length: 200 }, (_, n) => ({
    id: id(n + 500),
    created: '2026-01-05T10:00:00.000Z',
    author: pick(['', 'Ann <ann@example.com>', 'O\'Neil "the" dev', 'Zoë']),
    status: pick(['active', 'active', 'retired'] as const),
    ...(next() < 0.3 ? { scope: pick([['src/auth/**'], ['a/*', 'b/**']]) } : {}),
    ...(next() < 0.3 ? { supersedes: id(n + 400) } : {}),
    ...(next() < 0.3 ? { retired: '2026-02-01T00:00:00.000Z' } : {}),
    ...(next() < 0.3 ? { reason: pick(['moved on', 'said "stop"', 'a: b # c']) } : {}),
  }));
  const texts = metas.map((meta) => serializePin(meta, pick(['never touch auth\n', '- keep `x`\n---\nmore\n', ''])));

  it('reads what the tool writes as the YAML library does, a scoped pin left to it', () => {
    const ways = texts.map((text, i) => pinReadsAsYaml(text, `p${i}.md`));
    expect(ways.filter((w) => w === 'plain').length).toBeGreaterThan(50);
    for (const [i, meta] of metas.entries()) if (meta.scope) expect(ways[i]).toBe('yaml');
    // Retired by the tool: the status in place, the keys it adds after the others.
    const active = texts.find((_, i) => ways[i] === 'plain' && metas[i]!.status === 'active' && !metas[i]!.retired)!;
    const retired = retirePin(parsePin(active, 'p.md'), '2026-03-01T00:00:00.000Z', 'done with it');
    expect(pinReadsAsYaml(retired, 'p.md')).toBe('plain');
  });

  it('gives no other parse than the library for any edit of a written front-matter', () => {
    const ways = { plain: 0, yaml: 0 };
    for (const edited of oneCharEdits(texts, 35, 2000)) ways[pinReadsAsYaml(edited, 'f.md')]++;
    expect(ways.plain).toBeGreaterThan(0);
    expect(ways.yaml).toBeGreaterThan(ways.plain);
  });
});
