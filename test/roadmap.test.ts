// The roadmap: a pure function of the .handoff/ files, written by `handoff roadmap`.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderRoadmap } from '../src/roadmap/render.js';
import { parseTree as parseWith, type TreeFile } from '../src/store/tree.js';
import { parseHandoff } from '../src/store/handoff.js';
import { parsePin } from '../src/store/pin.js';
import { makeRepo } from './helpers.js';
import { handoffPath, handoffText, id, pinPath, pinText } from './fixtures-items.js';

const parseTree = (files: readonly TreeFile[]) => parseWith(files, undefined, { handoff: parseHandoff, pin: parsePin });
const template = readFileSync(path.resolve(__dirname, '../templates/roadmap.md'), 'utf8');

function sampleFiles(): TreeFile[] {
  return [
    { path: pinPath(id(1)), text: pinText({ id: id(1) }, 'never touch src/auth\n```\nkept verbatim, even a fence\n') },
    { path: pinPath(id(2)), text: pinText({ id: id(2), status: 'retired' }, 'old rule\n') },
    {
      path: handoffPath(id(3)),
      text: handoffText({ id: id(3), goal: 'first', status: 'superseded', superseded_by: id(4) }),
    },
    {
      path: handoffPath(id(4)),
      text: handoffText(
        { id: id(4), goal: 'second', parent: id(3) },
        '## Next steps\n\n- write the tests\n\n## Open questions\n\n- which table?\n',
      ),
    },
    { path: handoffPath(id(5)), text: handoffText({ id: id(5), goal: 'on a branch', branch: 'feature' }) },
    {
      path: handoffPath(id(6)),
      text: handoffText({ id: id(6), goal: 'finished', status: 'done', finished: '2026-01-06T10:00:00.000Z' }),
    },
  ];
}

describe('renderRoadmap', () => {
  it('shows active pins verbatim, open work by branch, history with chains', () => {
    const out = renderRoadmap(template, parseTree(sampleFiles()), '.handoff/ROADMAP.md');
    expect(out).toContain('````text\nnever touch src/auth\n```\nkept verbatim, even a fence\n````');
    expect(out).not.toContain('old rule');
    expect(out).toContain('### Branch `feature`');
    expect(out).toContain('#### second');
    expect(out).toContain('- write the tests');
    expect(out).toContain('- which table?');
    expect(out).toContain(`- superseded by \`${id(4).slice(0, 16)}\`: [first](handoffs/${id(3)}.md)`);
    expect(out).toContain('- done 2026-01-06: [finished]');
    expect(out).toContain('handoff resume');
    // Newest first: the feature branch's handoff (id 5) comes before main's (id 4).
    expect(out.indexOf('on a branch')).toBeLessThan(out.indexOf('#### second'));
    expect(out).not.toMatch(/\d\d:\d\d/);
  });

  it('gives the same bytes whatever order the files arrive in', () => {
    const files = sampleFiles();
    const expected = renderRoadmap(template, parseTree(files), '.handoff/ROADMAP.md');
    fc.assert(
      fc.property(fc.shuffledSubarray(files, { minLength: files.length, maxLength: files.length }), (shuffled) => {
        expect(renderRoadmap(template, parseTree(shuffled), '.handoff/ROADMAP.md')).toBe(expected);
      }),
      { numRuns: 30, seed: 30 },
    );
  });

  it('links relative to where the roadmap lives', () => {
    const out = renderRoadmap(template, parseTree(sampleFiles()), 'ROADMAP.md');
    expect(out).toContain('](.handoff/handoffs/');
  });
});

describe('handoff roadmap', () => {
  it('writes the file, is stable, and --check reports a difference', () => {
    const repo = makeRepo();
    repo.handoff(['init']);
    for (const f of sampleFiles()) repo.write(f.path, f.text!);
    const first = repo.handoff(['roadmap']);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Wrote \.handoff\/ROADMAP\.md \(2 open handoffs, 1 active pin\)\.\n$/);
    const bytes = repo.read('.handoff/ROADMAP.md');
    expect(repo.handoff(['roadmap']).stdout).toContain('up to date; nothing changed');
    expect(repo.handoff(['roadmap', '--check']).code).toBe(0);

    repo.write('.handoff/ROADMAP.md', bytes.replace('#### second', '#### edited by hand'));
    const check = repo.handoff(['roadmap', '--check']);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('-#### edited by hand\n+#### second');
    expect(check.stderr).toContain('out of date');
    const json = JSON.parse(repo.handoff(['roadmap', '--check', '--json']).stdout);
    expect(json).toMatchObject({ schema_version: 1, file: '.handoff/ROADMAP.md', up_to_date: false, exists: true });

    // A second clone with the files written in the opposite order gets the same bytes.
    const other = makeRepo({ name: 'other' });
    other.handoff(['init']);
    for (const f of sampleFiles().reverse()) other.write(f.path, f.text!);
    other.git('checkout', '-q', '-b', 'elsewhere');
    other.handoff(['roadmap']);
    expect(other.read('.handoff/ROADMAP.md')).toBe(bytes);
  });

  it('honours the roadmap path in config.yml and rejects one outside the repository', () => {
    const repo = makeRepo();
    repo.handoff(['init']);
    repo.write('.handoff/config.yml', 'roadmap: ROADMAP.md\n');
    repo.write(handoffPath(id(4)), handoffText({ id: id(4), goal: 'second' }));
    expect(repo.handoff(['roadmap']).code).toBe(0);
    expect(repo.read('ROADMAP.md')).toContain(`](.handoff/handoffs/${id(4)}.md)`);
    repo.write('.handoff/config.yml', 'roadmap: ../ROADMAP.md\n');
    const bad = repo.handoff(['roadmap']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^handoff: \.handoff\/config\.yml: roadmap must be a \.md path inside the repository/);
  });

  it('leaves the roadmap as it is while a handoff cannot be read, and says which file to fix', () => {
    const repo = makeRepo();
    repo.handoff(['init']);
    repo.write(
      handoffPath(id(3)),
      handoffText({ id: id(3), goal: 'first', status: 'superseded', superseded_by: id(4) }),
    );
    repo.write(handoffPath(id(4)), handoffText({ id: id(4), goal: 'second', parent: id(3) }));
    expect(repo.handoff(['roadmap']).code).toBe(0);
    const before = repo.read('.handoff/ROADMAP.md');
    expect(before).toContain('#### second');
    // The open handoff's front-matter broken by hand: it may be open work, so it must not vanish.
    repo.write(handoffPath(id(4)), repo.read(handoffPath(id(4))).replace(/^goal: "/m, 'goal: ['));
    const broken = new RegExp(
      `^handoff: ${handoffPath(id(4)).replace(/\./g, '\\.')}:\\d+: invalid YAML front-matter`,
      'm',
    );

    const r = repo.handoff(['roadmap']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(broken);
    expect(r.stderr).toContain(
      "left .handoff/ROADMAP.md as it is: it would leave out that file; fix it, then run 'handoff roadmap' again",
    );
    expect(repo.read('.handoff/ROADMAP.md')).toBe(before);

    // --check says what is wrong, never "up to date" in a run that fails.
    const checked = repo.handoff(['roadmap', '--check']);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toBe('');
    expect(checked.stderr).toMatch(broken);
    expect(checked.stderr).toContain('cannot check .handoff/ROADMAP.md while that file cannot be read');

    const skipped = [
      { file: handoffPath(id(4)), line: expect.any(Number), message: expect.stringContaining('invalid YAML') },
    ];
    const json = repo.handoff(['roadmap', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ written: false, skipped });
    const checkedJson = repo.handoff(['roadmap', '--check', '--json']);
    expect(checkedJson.code).toBe(1);
    expect(JSON.parse(checkedJson.stdout)).toMatchObject({ up_to_date: null, exists: true, diff: null, skipped });
    expect(repo.read('.handoff/ROADMAP.md')).toBe(before);

    // Nor does a writer's refresh, or the refresh hook, drop it: each says so in one line.
    const held = `handoff: warning: left .handoff/ROADMAP.md as it is while ${handoffPath(id(4))} cannot be read`;
    const pinned = repo.handoff(['pin', 'keep the roadmap whole']);
    expect(pinned.code).toBe(0);
    expect(pinned.stderr).toContain(held);
    expect(repo.read('.handoff/ROADMAP.md')).toBe(before);
    const refreshed = repo.handoff(['git-hook', 'refresh']);
    expect(refreshed.stderr).toContain(held);
    expect(repo.read('.handoff/ROADMAP.md')).toBe(before);
  });
});
