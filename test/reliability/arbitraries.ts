// Generators shared by the property and fuzz tests: text a person or an agent could put
// in a handoff, with YAML's traps over-represented.
import fc from 'fast-check';
import type { FileChange, HandoffMeta } from '../../src/store/handoff.js';
import { CHANGE_KINDS, FILE_STATES } from '../../src/store/handoff.js';
import type { PinMeta } from '../../src/store/pin.js';

/** Case counts: small in `npm test`, large under `npm run test:stress`. */
export const STRESS = process.env.HANDOFF_STRESS === '1';
export const runs = (bounded: number, stress: number) => (STRESS ? stress : bounded);
/** Seeded in `npm test`, so a run never fails by chance; a new seed each stress run, which fast-check prints on a failure. */
export const SEED = STRESS ? undefined : 20261125;

const YAML_TRAPS = [
  'yes',
  'no',
  'on',
  'off',
  'null',
  '~',
  'true',
  '1e51234',
  '0x1F',
  '0o17',
  '.inf',
  '-.nan',
  '2024-01-05',
  '2024-01-05T10:00:00Z',
  '12:30:00',
  '- item',
  ': value',
  '? key',
  '#comment',
  ' # comment',
  '!!js/function "x"',
  '!tag',
  '*alias',
  '&anchor',
  '<<: *a',
  '"',
  "'",
  '`',
  '---',
  '...',
  '--- x',
  '|',
  '>',
  '%YAML 1.1',
  '@',
  '{a: 1}',
  '[1, 2]',
  '\t',
  ' ',
  '\r\n',
  '\r',
  '\n---\n',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\u0085',
  '\u001b[31m',
  '\u0007',
  'ünïcødé',
  '日本語',
  '🚀',
  'a\u0301',
  '\\',
  '\\n',
  '${HOME}',
  '{{goal}}',
  '## Goal',
  '```',
];

/** Any text without NUL: the tool refuses NUL in goals and pins. */
export const text = (maxLength = 200) =>
  fc
    .array(
      fc.oneof(
        { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
        { weight: 2, arbitrary: fc.constantFrom(...YAML_TRAPS) },
        { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 20 }) },
      ),
      { maxLength: Math.max(1, Math.floor(maxLength / 10)) },
    )
    .map((parts) => parts.join('').replace(/\0/g, ''));

export const nonEmptyText = (maxLength = 200) => text(maxLength).filter((t) => t.trim() !== '');

export const id = fc.stringMatching(/^[0-9a-hjkmnp-tv-z]{26}$/);
const iso = fc
  .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString());
const sha = fc.stringMatching(/^[0-9a-f]{40}$/);
const repoPath = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
      fc.constantFrom('src', 'a b', 'ü', 'new\nline', '.hidden', '-dash'),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((segments) =>
    segments
      .map((s) => s.replace(/[\0/\\]/g, '_'))
      .map((s) => (s === '..' || s === '.' ? '_' : s))
      .join('/'),
  )
  .filter((p) => !/^[A-Za-z]:/.test(p));

const fileChange: fc.Arbitrary<FileChange> = fc.record(
  {
    path: repoPath,
    change: fc.constantFrom(...CHANGE_KINDS),
    from: repoPath,
    insertions: fc.nat(),
    deletions: fc.nat(),
    binary: fc.constant(true as const),
    state: fc.constantFrom(...FILE_STATES),
  },
  { requiredKeys: ['path', 'change', 'state'] },
);

export const handoffMeta: fc.Arbitrary<HandoffMeta> = fc
  .record({
    id,
    goal: nonEmptyText(),
    status: fc.constantFrom('open' as const, 'done' as const, 'superseded' as const),
    created: iso,
    author: text(60),
    branch: fc.option(text(40), { nil: null }),
    base: fc.option(sha, { nil: null }),
    head: fc.option(sha, { nil: null }),
    parent: fc.option(id, { nil: null }),
    superseded_by: fc.option(id, { nil: undefined }),
    finished: fc.option(iso, { nil: undefined }),
    files: fc.array(fileChange, { maxLength: 6 }),
  })
  .map((m) => {
    const { superseded_by, finished, ...rest } = m;
    return { ...rest, ...(superseded_by ? { superseded_by } : {}), ...(finished ? { finished } : {}) };
  });

export const pinMeta: fc.Arbitrary<PinMeta> = fc
  .record({
    id,
    created: iso,
    author: text(60),
    status: fc.constantFrom('active' as const, 'retired' as const),
    scope: fc.option(fc.array(text(30), { minLength: 1, maxLength: 3 }), { nil: undefined }),
    supersedes: fc.option(id, { nil: undefined }),
    retired: fc.option(iso, { nil: undefined }),
    reason: fc.option(text(60), { nil: undefined }),
  })
  .map((m) => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined)) as unknown as PinMeta);

/** Per-test time limit: the stress forms run for minutes. */
export const TIMEOUT = STRESS ? 1_800_000 : 120_000;
