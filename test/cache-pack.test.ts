// The items cache stores a handoff's front-matter packed (store/cache-pack.ts): what it
// gives back is exactly what the parser gave, keys in the same order, whatever the optional
// keys; what it does not know is stored as it is. And through the CLI: `list --json` from a
// cold cache and from the packed one print the same bytes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packMeta, unpackMeta } from '../src/store/cache-pack.js';
import { parseHandoff } from '../src/store/handoff.js';
import { parsePin } from '../src/store/pin.js';
import { handoffText, id, pinText } from './fixtures-items.js';
import { handoffFile, itemFiles, makeRepo } from './helpers.js';

const metas = [
  parseHandoff(handoffText({ id: id(1) }), 'a.md').meta,
  parseHandoff(
    handoffText({
      id: id(2),
      goal: 'a goal with "quotes", a colon: and ünïcode',
      step: 'the step',
      status: 'superseded',
      branch: null,
      base: 'a'.repeat(40),
      head: 'b'.repeat(40),
      parent: id(1),
      superseded_by: id(3),
      finished: '2026-01-06T10:00:00.000Z',
      landed: 'c'.repeat(40),
      files: [
        { path: 'src/a.ts', change: 'modified', insertions: 0, deletions: 7, state: 'committed' },
        { path: 'src/b.ts', change: 'renamed', from: 'src/old b.ts', state: 'staged' },
        { path: 'logo.png', change: 'added', binary: true, state: 'unstaged' },
        { path: 'node_modules/', change: 'added', files: 3000, state: 'untracked' },
      ],
    }),
    'b.md',
  ).meta,
];

describe('the packed front-matter of the items cache', () => {
  it('gives back what the parser gave, byte for byte as JSON, and is smaller', () => {
    for (const meta of metas) {
      const packed = packMeta(meta);
      expect(Array.isArray(packed)).toBe(true);
      const back = JSON.parse(JSON.stringify(unpackMeta(JSON.parse(JSON.stringify(packed)))));
      expect(JSON.stringify(back)).toBe(JSON.stringify(meta));
      expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify(meta).length);
    }
  });

  it('stores what it does not know as it is: a pin, an unknown key', () => {
    const pin = parsePin(pinText({ id: id(4) }, 'never touch the auth module'), 'p.md').meta;
    expect(packMeta(pin)).toBe(pin);
    const odd = { ...metas[0]!, extra: 'kept' };
    expect(packMeta(odd)).toBe(odd);
    expect(unpackMeta(odd)).toBe(odd);
  });

  it('list --json prints the same from a cold cache and from the packed one', () => {
    const repo = makeRepo();
    const a = id(5);
    const b = id(6);
    repo.write(
      handoffFile(a),
      handoffText({
        id: a,
        status: 'superseded',
        superseded_by: b,
        files: [{ path: 'src/x.ts', change: 'renamed', from: 'src/y.ts', insertions: 2, state: 'committed' }],
      }),
    );
    repo.write(handoffFile(b), handoffText({ id: b, parent: a, step: 'next' }));
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'handoffs');
    const cold = repo.handoff(['list', '--json']);
    expect(cold.code).toBe(0);
    const stored = itemFiles(repo.dir).map((f) => readFileSync(f, 'utf8'));
    expect(stored.join('')).toContain('"src/y.ts"');
    expect(stored.join('')).not.toContain('"insertions"');
    const warm = repo.handoff(['list', '--json']);
    expect(warm.stdout).toBe(cold.stdout);
    expect(JSON.parse(warm.stdout).handoffs.map((h: { id: string }) => h.id)).toEqual([b, a]);
  });
});
