// Concurrent work on handoff and pin files merges cleanly: two clones continue or finish the
// same handoff, or retire the same pin, and `git pull` merges field by field; random
// concurrent operations on two branches, merged both ways, never conflict or lose a file.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitEnv, listFiles, makeRepo, runHandoff, type Repo } from './helpers.js';

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', args, { cwd: dir, env: gitEnv(), encoding: 'utf8' });
const handoff = (dir: string, ...args: string[]) => runHandoff(dir, args);

function clone(repo: Repo, name: string): string {
  const dir = path.join(repo.dir, '..', name);
  git(path.dirname(dir), 'clone', '-q', repo.dir, dir);
  git(dir, 'config', 'user.name', 'Test Author');
  git(dir, 'config', 'user.email', 'author@example.com');
  expect(handoff(dir, 'init').code).toBe(0); // registers the merge driver in this clone's local config
  return dir;
}

function commitAll(dir: string, message: string) {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', message);
}

const files = (dir: string, sub: string) => listFiles(path.join(dir, '.handoff', sub)).filter((f) => f.endsWith('.md'));

function setUp(): Repo {
  const repo = makeRepo();
  expect(repo.handoff(['init']).code).toBe(0);
  expect(repo.handoff(['new', 'the start', '--no-edit']).code).toBe(0);
  expect(repo.handoff(['pin', 'never touch src/auth']).code).toBe(0);
  repo.handoff(['roadmap']);
  commitAll(repo.dir, 'handoff set up');
  git(repo.dir, 'config', 'receive.denyCurrentBranch', 'updateInstead');
  return repo;
}

describe('merging handoff and pin files', () => {
  it('two clones continue, finish and unpin the same items: git pull merges cleanly and check passes', () => {
    const repo = setUp();
    const a = clone(repo, 'a');
    const b = clone(repo, 'b');
    const pinId = files(a, 'pins')[0]!.replace(/\.md$/, '');
    expect(handoff(a, 'new', 'continue in a', '--no-edit').code).toBe(0);
    expect(handoff(a, 'done').code).toBe(0);
    expect(handoff(a, 'unpin', pinId, '--reason', 'done with auth').code).toBe(0);
    handoff(a, 'roadmap');
    commitAll(a, 'a continues');
    git(a, 'push', '-q', 'origin', 'main');
    expect(handoff(b, 'new', 'continue in b', '--no-edit').code).toBe(0);
    expect(handoff(b, 'unpin', pinId).code).toBe(0);
    handoff(b, 'roadmap');
    commitAll(b, 'b continues');
    git(b, 'pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main');
    expect(git(b, 'status', '--porcelain')).toBe('');
    const handoffs = files(b, 'handoffs');
    expect(handoffs).toHaveLength(3);
    const text = handoffs.map((f) => readFileSync(path.join(b, '.handoff/handoffs', f), 'utf8')).join('\n');
    expect(text).not.toContain('<<<<<<<');
    // The parent is superseded by the earliest continuation; both children keep it as parent: a fork.
    expect(text.match(/^status: "superseded"$/gm)).toHaveLength(1);
    expect(text.match(/^status: "done"$/gm)).toHaveLength(1);
    const pin = readFileSync(path.join(b, '.handoff/pins', `${pinId}.md`), 'utf8');
    expect(pin).toContain('status: "retired"');
    expect(pin).toContain('never touch src/auth');
    const check = handoff(b, 'check');
    expect(check.stdout + check.stderr).not.toContain('error');
    expect(check.code).toBe(0);
  });

  it("a committed .gitattributes routing a source file to the driver gets git's own merge, never a roadmap", () => {
    const repo = setUp();
    repo.write('src.txt', 'one\ntwo\nthree\n');
    repo.write('.gitattributes', '* merge=handoff-roadmap\n');
    commitAll(repo.dir, 'a stranger routes every file to the driver');
    git(repo.dir, 'checkout', '-q', '-b', 'side');
    repo.write('src.txt', 'one\ntwo\nthree from side\n');
    commitAll(repo.dir, 'side');
    git(repo.dir, 'checkout', '-q', 'main');
    repo.write('src.txt', 'one changed on main\ntwo\nthree\n');
    commitAll(repo.dir, 'main');
    const clean = spawnSync('git', ['merge', '--no-edit', 'side'], { cwd: repo.dir, env: gitEnv(), encoding: 'utf8' });
    expect(clean.status).toBe(0);
    expect(clean.stderr).toContain(
      'handoff: merge driver: src.txt is not a handoff, a pin or the roadmap (.handoff/ROADMAP.md); merging it as text',
    );
    expect(repo.read('src.txt')).toBe('one changed on main\ntwo\nthree from side\n');
    // Both sides change one line: a real conflict, with the user's lines, not a roadmap written over them.
    git(repo.dir, 'checkout', '-q', 'side');
    repo.write('src.txt', 'one from side\ntwo\nthree from side\n');
    commitAll(repo.dir, 'side again');
    git(repo.dir, 'checkout', '-q', 'main');
    repo.write('src.txt', 'one from main\ntwo\nthree from side\n');
    commitAll(repo.dir, 'main again');
    const conflict = spawnSync('git', ['merge', '--no-edit', 'side'], {
      cwd: repo.dir,
      env: gitEnv(),
      encoding: 'utf8',
    });
    expect(conflict.status).not.toBe(0);
    const text = repo.read('src.txt');
    expect(text).toContain('<<<<<<<');
    expect(text).toContain('one from main');
    expect(text).toContain('one from side');
    expect(text).not.toContain('Roadmap');
  });

  it('names a file left with conflict markers as a merge conflict and says how to resolve it', () => {
    const repo = setUp();
    const file = path.join('.handoff/handoffs', files(repo.dir, 'handoffs')[0]!);
    const text = readFileSync(path.join(repo.dir, file), 'utf8');
    repo.write(
      file,
      text.replace('status: "open"\n', '<<<<<<< ours\nstatus: "done"\n=======\nstatus: "superseded"\n>>>>>>> theirs\n'),
    );
    const r = repo.handoff(['check']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${file}: error: has merge conflict markers (<<<<<<<): resolve the merge conflict`);
    // The driver is registered here: running init again would not have helped, so it is not suggested.
    expect(r.stderr).not.toContain('handoff init');
    git(repo.dir, 'config', '--unset', 'merge.handoff-roadmap.driver');
    const unset = repo.handoff(['list']);
    expect(unset.code).toBe(1);
    expect(unset.stderr.match(/run 'handoff init' once in this clone/g)).toHaveLength(1);
  });

  it('fuzz: random concurrent operations on two branches, merged both ways, never conflict or lose a file', () => {
    // A fixed seed, so every run makes the same operations; each failure message names the
    // seed, and HANDOFF_FUZZ_SEED=<seed> runs another sequence (or replays a reported one).
    const seed = Number(process.env.HANDOFF_FUZZ_SEED ?? 26);
    let state = seed;
    const random = (n: number) => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31), state % n);
    const rounds = process.env.HANDOFF_STRESS === '1' ? 12 : 3;
    for (let round = 0; round < rounds; round++) {
      const repo = setUp();
      const base = git(repo.dir, 'rev-parse', 'HEAD').trim();
      const sides = ['left', 'right'];
      for (const side of sides) {
        git(repo.dir, 'checkout', '-q', '-b', side, base);
        for (let step = 0; step < 4; step++) {
          const pins = files(repo.dir, 'pins');
          const op = random(4);
          if (op === 0) handoff(repo.dir, 'new', `${side} goal ${step}`, '--no-edit', '--fresh');
          else if (op === 1)
            handoff(
              repo.dir,
              'done',
              path.basename(files(repo.dir, 'handoffs')[random(files(repo.dir, 'handoffs').length)]!, '.md'),
            );
          else if (op === 2) handoff(repo.dir, 'unpin', pins[random(pins.length)]!.replace(/\.md$/, ''));
          else handoff(repo.dir, 'pin', `${side} rule ${step}`);
        }
        handoff(repo.dir, 'roadmap');
        commitAll(repo.dir, `${side} work`);
      }
      const all = new Set([
        ...sides.flatMap((s) =>
          git(repo.dir, 'ls-tree', '-r', '--name-only', s, '.handoff/').split('\n').filter(Boolean),
        ),
      ]);
      for (const [into, from] of [
        ['left', 'right'],
        ['right', 'left'],
      ] as const) {
        git(repo.dir, 'checkout', '-q', '-B', `merge-${into}`, into);
        const merged = execFileSync('git', ['merge', '--no-edit', '-q', from], {
          cwd: repo.dir,
          env: gitEnv(),
          encoding: 'utf8',
          stdio: 'pipe',
        });
        void merged;
        expect(git(repo.dir, 'status', '--porcelain'), `seed ${seed}`).toBe('');
        const now = new Set(
          git(repo.dir, 'ls-tree', '-r', '--name-only', 'HEAD', '.handoff/').split('\n').filter(Boolean),
        );
        expect(
          [...all].filter((f) => !now.has(f)),
          `seed ${seed}`,
        ).toEqual([]);
        const check = handoff(repo.dir, 'check');
        expect(check.stdout, `seed ${seed}`).toBe('');
        expect(check.code, `seed ${seed}`).toBe(0);
      }
      // Both directions agree on every handoff and pin file.
      expect(
        git(repo.dir, 'diff', 'merge-left', 'merge-right', '--', '.handoff/handoffs', '.handoff/pins'),
        `seed ${seed}`,
      ).toBe('');
    }
  }, 240_000);
});
