// Pure parts of the git integration: hook blocks in and out, short ids, the tree merge, the parse cache.
import fc from 'fast-check';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addBlock, CREATED_HEADER, hookBlock, removeBlock, HOOK_NAMES } from '../src/git-hooks/hook-script.js';
import { shortId } from '../src/store/id.js';
import { placeIn, prefixLookup, prefixLookupIn, uniquePrefixes } from '../src/store/id.js';
import { blobId, cacheKey, mergeMaps } from '../src/store/tree.js';
import { parseNameStatus, parseNumstat, parseRawNumstat } from '../src/git/git-output.js';
import { ownTempsPathspec } from '../src/store/fs.js';
import { itemFiles, itemKeys, makeRepo, runHandoff, tempDir } from './helpers.js';
import { handoffPath, handoffText, id } from './fixtures-items.js';
import { execFileSync } from 'node:child_process';

const cli = { node: "/opt/node's/bin/node", bin: '/opt/handoff/bin/handoff.js' };

describe('hook blocks', () => {
  it('come out exactly as they went in', () => {
    const script = fc.tuple(
      fc.constantFrom('#!/bin/sh', '#!/usr/bin/env bash', '#!/bin/bash -e'),
      fc.array(
        fc.string({ unit: 'grapheme-ascii' }).map((s) => s.replace(/\n/g, '')),
        { maxLength: 6 },
      ),
      fc.boolean(),
    );
    fc.assert(
      fc.property(script, fc.constantFrom(...HOOK_NAMES), ([shebang, lines, finalNewline], hook) => {
        const original = [shebang, ...lines].join('\n') + (finalNewline ? '\n' : '');
        const block = hookBlock(hook, cli, '1.2.3');
        const added = addBlock(original, block, 'after-shebang');
        expect(added.startsWith(`${shebang}\n# >>> handoff >>>`)).toBe(true);
        expect(addBlock(added, block, 'after-shebang')).toBe(added);
        expect(removeBlock(added)).toBe(original === shebang ? `${shebang}\n` : original);
      }),
      { numRuns: 200, seed: 200 },
    );
  });

  it('make a created hook disappear on removal, and quote paths for the shell', () => {
    const created = addBlock(undefined, hookBlock('pre-commit', cli, '1.2.3'), 'after-shebang');
    expect(created.startsWith(CREATED_HEADER)).toBe(true);
    expect(removeBlock(created)).toBe('');
    expect(created).toContain(`'/opt/node'\\''s/bin/node'`);
    for (const hook of HOOK_NAMES) {
      for (const c of [cli, null])
        expect(
          execFileSync('sh', ['-n'], {
            input: addBlock(undefined, hookBlock(hook, c, '1.2.3', true), 'after-shebang'),
          }).toString(),
        ).toBe('');
    }
  });
});

describe('uniquePrefixes', () => {
  it('agrees with shortId', () => {
    const ids = fc.uniqueArray(fc.stringMatching(/^[0-9a-hjkmnp-tv-z]{26}$/), { minLength: 1, maxLength: 40 });
    const near = fc.uniqueArray(
      fc.stringMatching(/^[01]{6}$/).map((s) => `01jx${s}0000000000000000`),
      { minLength: 1, maxLength: 30 },
    );
    fc.assert(
      // Sorted too: a tree's ids come sorted, and are not sorted again.
      fc.property(
        fc.oneof(
          ids,
          near,
          near.map((l) => [...l].sort()),
        ),
        (list) => {
          const fast = uniquePrefixes(list);
          for (const i of list) expect(fast.get(i)).toBe(shortId(i, list));
        },
      ),
    );
  });

  it('gives, asked one id at a time (prefixLookup), the same prefixes, and nothing for an id not among them', () => {
    const near = fc.array(
      fc.stringMatching(/^[01]{6}$/).map((s) => `01jx${s}0000000000000000`),
      { minLength: 1, maxLength: 30 },
    );
    fc.assert(
      fc.property(near, fc.stringMatching(/^[01]{6}$/), (list, other) => {
        const all = uniquePrefixes(list);
        const one = prefixLookup(list);
        for (const i of list) expect(one(i)).toBe(all.get(i));
        const absent = `01jx${other}0000000000000001`;
        expect(one(absent)).toBeUndefined();
      }),
    );
  });

  it("gives the same prefixes for a year's ids handed over as sorted lists, asked together (prefixLookupIn)", () => {
    const near = fc.array(
      fc.stringMatching(/^[01]{6}$/).map((s) => `01jx${s}0000000000000000`),
      { minLength: 0, maxLength: 30 },
    );
    fc.assert(
      fc.property(near, near, fc.stringMatching(/^[01]{6}$/), (a, b, other) => {
        fc.pre(a.length + b.length > 0);
        const sorted = (l: string[]) => [...new Set(l)].sort();
        const all = uniquePrefixes([...a, ...b]);
        const one = prefixLookupIn([sorted(a), sorted(b)].map((l) => (id: string) => placeIn(l, id)));
        for (const i of [...a, ...b]) expect(one(i)).toBe(all.get(i));
        const absent = `01jx${other}0000000000000001`;
        expect(one(absent)).toBeUndefined();
      }),
    );
  });
});

describe('one diff printed two ways', () => {
  it('reads --raw --numstat as the --name-status and --numstat of the same diff read alone', () => {
    const repo = makeRepo();
    const base = repo.commit('files', {
      'old name.ts': 'one\ntwo\nthree\nfour\nfive\n',
      'a.ts': 'a\n',
      ':colon.ts': 'c\n',
      'gone.ts': 'g\n',
    });
    repo.git('mv', 'old name.ts', 'new\nname.ts');
    repo.git('rm', '-q', 'gone.ts');
    repo.write('a.ts', 'a\nb\n');
    repo.write(':colon.ts', 'c\nd\n');
    writeFileSync(path.join(repo.dir, 'img.png'), Buffer.from([0, 1, 2]));
    repo.git('add', 'img.png');
    const diff = ['diff', '-z', '--no-relative', '--no-ext-diff', '--no-textconv', '-M'];
    const both = parseRawNumstat(repo.git(...diff, '--raw', '--numstat', base, '--'));
    expect(both.overall).toEqual(parseNameStatus(repo.git(...diff, '--name-status', base, '--')));
    expect(both.stats).toEqual(parseNumstat(repo.git(...diff, '--numstat', base, '--')));
    expect(both.overall.map((c) => c.change).sort()).toEqual(['added', 'deleted', 'modified', 'modified', 'renamed']);
    expect(parseRawNumstat('')).toEqual({ overall: [], stats: new Map() });
  });
});

describe('a git add beside a write', () => {
  it("leaves out this process's temporary files beside the path, and nothing else", () => {
    const repo = makeRepo();
    const mine = `.handoff/.RO[AD]MAP.md.${process.pid}.0a1b2c3d.tmp`;
    const others = [`.handoff/.RO[AD]MAP.md.${process.pid + 1}.0a1b2c3d.tmp`, '.handoff/RO[AD]MAP.md', '.handoff/x.md'];
    for (const f of [mine, ...others]) repo.write(f, 'x\n');
    repo.git('add', '-A', '--', '.handoff', ownTempsPathspec('.handoff/RO[AD]MAP.md'));
    const staged = repo.git('diff', '--cached', '--name-only', '-z').split('\0').filter(Boolean);
    expect(staged.sort()).toEqual([...others].sort());
  });
});

describe('mergeMaps', () => {
  it('takes the side that changed, keeps additions from both, honours deletions', () => {
    const base = new Map([
      ['a', '1'],
      ['b', '1'],
      ['c', '1'],
    ]);
    const ours = new Map([
      ['a', '2'],
      ['b', '1'],
      ['d', 'ours'],
    ]);
    const theirs = new Map([
      ['a', '1'],
      ['b', '3'],
      ['c', '1'],
      ['e', 'theirs'],
    ]);
    expect(Object.fromEntries(mergeMaps(base, ours, theirs))).toEqual({ a: '2', b: '3', d: 'ours', e: 'theirs' });
  });
});

describe('the parse cache', () => {
  it('keys a working-tree file by its whole text and a file from git by its blob id', () => {
    const repo = makeRepo();
    const file = handoffPath(id(1));
    const text = handoffText({ id: id(1) });
    repo.write(file, text);
    const blob = repo.git('hash-object', file).trim();
    expect(cacheKey({ path: file, text })).toBe(cacheKey({ path: file, text: `${text}` }));
    expect(cacheKey({ path: file, text })).not.toBe(cacheKey({ path: file, text: text.replace('work', 'wark') }));
    expect(cacheKey({ path: file, text })).not.toBe(cacheKey({ path: handoffPath(id(2)), text }));
    expect(cacheKey({ path: file, blob })).not.toBe(cacheKey({ path: file, text }));
    // What the writers compare with the index (git-hooks/validated.ts) is the id git gives it.
    expect(blobId(text)).toBe(blob);
  });

  it('lives in the git dir, gives the same bytes, notices edits and survives corruption', () => {
    const repo = makeRepo();
    repo.handoff(['init']);
    repo.write(handoffPath(id(1)), handoffText({ id: id(1), goal: 'before' }));
    repo.handoff(['roadmap']);
    expect(itemFiles(repo.dir).length).toBeGreaterThan(0);
    const first = repo.read('.handoff/ROADMAP.md');
    repo.write('.handoff/ROADMAP.md', '');
    repo.handoff(['roadmap']);
    expect(repo.read('.handoff/ROADMAP.md')).toBe(first);
    repo.write(handoffPath(id(1)), handoffText({ id: id(1), goal: 'after' }));
    repo.handoff(['roadmap']);
    expect(repo.read('.handoff/ROADMAP.md')).toContain('#### after');
    for (const f of itemFiles(repo.dir)) writeFileSync(f, '{not json');
    const r = repo.handoff(['roadmap', '--check']);
    expect(r.code).toBe(0);
    expect(itemKeys(repo.dir).length).toBeGreaterThan(0);
  });
});

describe('handoff merge-driver outside a merge', () => {
  it('falls back to a text merge when it cannot tell which commits are merged', () => {
    const repo = makeRepo();
    const dir = tempDir();
    const f = (name: string, text: string) => {
      writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    const base = f('base', 'a\nb\nc\nd\ne\n');
    const ours = f('ours', 'a\nB\nc\nd\ne\n');
    const theirs = f('theirs', 'a\nb\nc\nD\ne\n');
    const r = runHandoff(repo.dir, ['merge-driver', base, ours, theirs, '.handoff/ROADMAP.md']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('cannot tell which commit is being merged');
    expect(readFileSync(ours, 'utf8')).toBe('a\nB\nc\nD\ne\n');
  });
});
