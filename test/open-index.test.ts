// The open index (store/open-index.ts): a session start reads the pins and the open
// handoffs only, and still sees every change a person, a command or git makes to them.
import { readFileSync, rmSync, statSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { plainlyClosed, textHash } from '../src/store/open-index.js';
import { type Kept, type Open, packOpen, packTime, unpackOpen, unpackTime } from '../src/store/open-pack.js';
import { handoffFile, itemKeys, makeRepo, type Repo } from './helpers.js';
import { handoffPath, handoffText, id } from './fixtures-items.js';
import { idTime as idTimeOf } from '../src/store/id.js';

const resume = (repo: Repo) => {
  const r = repo.handoff(['resume']);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
};
const idOf = (out: string) => path.basename(out.trim(), '.md');

describe('the open index', () => {
  it('tells a plainly closed handoff from its status line, and leaves anything less plain to the parser', () => {
    const closed = handoffText({ id: id(1), status: 'done' });
    expect(plainlyClosed(closed)).toBe(true);
    expect(plainlyClosed(handoffText({ id: id(2), status: 'superseded' }))).toBe(true);
    expect(plainlyClosed(handoffText({ id: id(3) }))).toBe(false);
    expect(plainlyClosed(closed.replace('status: "done"', "status: 'done' # finished"))).toBe(true);
    // A second status key, flow style, no front-matter, or a status only in the body: parsed.
    expect(plainlyClosed(closed.replace('status: "done"', 'status: "done"\nstatus: "open"'))).toBe(false);
    expect(plainlyClosed('---\n{id: x, status: open}\n---\n')).toBe(false);
    expect(plainlyClosed('status: "done"\n')).toBe(false);
    expect(plainlyClosed(`${handoffText({ id: id(4) })}\nstatus: "done"\n`)).toBe(false);
  });

  it("tells a young file's texts apart by a hash: one character changed, or two swapped, at the same size", () => {
    const text = handoffText({ id: id(5), goal: 'goal aaaa' });
    const hashes = new Set(
      [text, text.replace('aaaa', 'aaab'), text.replace('aaaa', 'baaa'), text.replace('id:', 'di:')].map(textHash),
    );
    expect(hashes.size).toBe(4);
    expect(textHash(text)).toBe(textHash(`${text}`));
  });

  it('stores what it keeps packed, and reads it back exactly: times to the fraction of a millisecond, metas, problems', () => {
    // Seeded: stat times as a file system gives them (fractions of a millisecond), around now.
    let seed = 29;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const time = () => 1_795_553_360_698 + Math.floor(next() * 1e10) + Math.floor(next() * 1e6) / 1e6;
    const meta = (n: number) => ({
      id: id(n),
      goal: `goal ${n}`,
      status: 'open',
      created: '2026-11-24T10:00:00.000Z',
      author: 'A <a@example.com>',
      branch: `feature-${n}`,
      base: null,
      head: null,
      parent: n > 1 ? id(n - 1) : null,
      files: [{ path: 'src/a.ts', change: 'modified', insertions: 3, deletions: 1, state: 'committed' }],
    });
    const open: Open = { dirs: {}, files: {} };
    for (let n = 1; n <= 200; n++) {
      const c = time();
      open.dirs[`.handoff/handoffs/2026-11/${n}/`] = [c, n % 3 === 0 ? c : time(), 1000 + n, n % 7 === 0 ? 1 : 0];
    }
    // A month listed before its days: they are stored in its entry, by their names, each after
    // the one before in the order JSON gives them back (numbers such as 10 first).
    open.dirs['.handoff/handoffs/2026-12/'] = [time(), time(), 2000, 0];
    for (const [day, racy] of [
      ['01', 0],
      ['02', 1],
      ['11', 0],
      ['10', 0],
    ] as const)
      open.dirs[`.handoff/handoffs/2026-12/${day}/`] = [time(), time(), 2001, racy];
    // Copied with their times kept: each modification time as far from its change time as the day before's.
    const copied = time();
    open.dirs['.handoff/handoffs/2027-01/'] = [copied, copied - 86_400_000.25, 3000, 0];
    for (const [i, day] of ['03', '04', '05'].entries())
      open.dirs[`.handoff/handoffs/2027-01/${day}/`] = [copied + i + 1, copied - 86_400_000.25 + i + 1, 3001 + i, 0];
    open.files['.handoff/handoffs/2026-11/01/a.md'] = {
      st: [time(), time(), 3137, 5],
      item: { meta: meta(1) as never },
    };
    // Listed files with every key, with some, and one with a key this version does not know (kept as it is).
    const listed = [
      { path: 'a b/', change: 'added', files: 3, state: 'untracked' },
      { path: 'new.ts', change: 'renamed', from: 'old.ts', insertions: 0, deletions: 2, binary: true, state: 'staged' },
      { path: 'x.png', change: 'modified', binary: true, state: 'unstaged' },
      { path: 'y.ts', change: 'modified', state: 'committed', extra: 1 },
      { path: 'z.ts', state: 'committed', change: 'modified' },
    ];
    open.files['.handoff/handoffs/2026-11/02/b.md'] = {
      st: [time(), time(), 2000, 6],
      item: { meta: { ...meta(2), files: listed } as never },
      hash: 'a'.repeat(40),
    };
    // Named after their ids: stored as arrays, without the id, `created` after the id's time
    // (or as it is, when it is not a time after it), an unusual change kept as it is.
    open.files[`.handoff/handoffs/2026-11/04/${id(4)}.md`] = {
      st: [time(), time(), 2100, 9],
      item: { meta: meta(4) as never },
    };
    open.files[`.handoff/handoffs/2026-11/05/${id(5)}.md`] = {
      st: [time(), time(), 2200, 10],
      item: {
        meta: {
          id: id(5),
          goal: 'goal 5',
          step: 'a step',
          status: 'open',
          created: 'not a time',
          author: '',
          branch: null,
          base: 'abc1234',
          head: null,
          parent: null,
          superseded_by: id(6),
          finished: '2026-11-25T10:00:00.000Z',
          landed: 'abc1234',
          files: [{ path: 'w.ts', change: 'moved', state: 'elsewhere' }, ...listed],
        } as never,
      },
    };
    // Named after its id, with a key the parser does not give, or its keys in another order: stored as it is.
    open.files[`.handoff/handoffs/2026-11/06/${id(6)}.md`] = {
      st: [time(), time(), 2300, 11],
      item: { meta: { ...meta(6), extra: 1 } as never },
    };
    const { id: _id, ...noId } = meta(7);
    open.files[`.handoff/handoffs/2026-11/07/${id(7)}.md`] = {
      st: [time(), time(), 2400, 12],
      item: { meta: { ...noId, id: id(7) } as never },
    };
    open.files['.handoff/pins/p.md'] = {
      st: [time(), time(), 90, 7],
      item: { meta: { id: id(3), status: 'active' } as never, body: 'Rule.' },
    };
    // Pins named after their ids: arrays too, their text first; one with a key the parser does not give, as it is.
    const pinMeta = (n: number, more: Record<string, unknown> = {}) => ({
      id: id(n),
      created: '2026-11-24T10:00:00.000Z',
      author: 'A <a@example.com>',
      status: 'active',
      ...more,
    });
    open.files[`.handoff/pins/${id(20)}.md`] = {
      st: [time(), time(), 91, 13],
      item: { meta: pinMeta(20) as never, body: 'Rule 20.' },
    };
    open.files[`.handoff/pins/${id(21)}.md`] = {
      st: [time(), time(), 92, 14],
      item: {
        meta: pinMeta(21, {
          status: 'retired',
          scope: ['src/**', 'lib/*.ts'],
          supersedes: id(20),
          retired: '2026-11-25T10:00:00.000Z',
          reason: 'done',
        }) as never,
        body: 'Rule 21.',
      },
    };
    open.files[`.handoff/pins/${id(22)}.md`] = {
      st: [time(), time(), 93, 15],
      item: { meta: pinMeta(22, { created: 'not a time', reason: 'only this' }) as never, body: '' },
    };
    open.files[`.handoff/pins/${id(23)}.md`] = {
      st: [time(), time(), 94, 16],
      item: { meta: pinMeta(23, { extra: 1 }) as never, body: 'Rule 23.' },
    };
    open.files['.handoff/handoffs/2026-11/03/c.md'] = {
      st: [time(), time(), 9, 8],
      item: { problem: { message: 'bad', line: 2 } },
    };
    const stored = JSON.parse(JSON.stringify(packOpen(open)));
    const back = unpackOpen(structuredClone(stored))!;
    expect(back).toEqual(open);
    // Keys in the order they were parsed in: what `--json` prints of them is the same text.
    expect(JSON.stringify(back.files['.handoff/handoffs/2026-11/02/b.md'])).toBe(
      JSON.stringify(open.files['.handoff/handoffs/2026-11/02/b.md']),
    );
    expect(stored.files[`2026-11/04/${id(4)}.md`].m).toEqual([
      'goal 4',
      'open',
      Date.parse('2026-11-24T10:00:00.000Z') - Date.parse(new Date(idTimeOf(id(4))).toISOString()),
      'A <a@example.com>',
      'feature-4',
      null,
      null,
      id(3),
      [['src/a.ts', 0, 0, 3, 1]],
    ]);
    expect(stored.files[`2026-11/05/${id(5)}.md`].m.slice(2, 3)).toEqual(['not a time']);
    expect(stored.files[`2026-11/05/${id(5)}.md`].m[8].slice(0, 2)).toEqual([
      ['w.ts', 'moved', 'elsewhere'],
      ['a b/', 1, 3, null, null, null, null, 3],
    ]);
    expect(stored.files[`2026-11/06/${id(6)}.md`].item.meta.extra).toBe(1);
    expect(stored.files[`2026-11/07/${id(7)}.md`].item.meta.id).toBe(id(7));
    // Not named after its id: as it is.
    expect(stored.files['2026-11/01/a.md'].item.meta.files).toEqual(meta(1).files);
    expect(Object.keys(stored.dirs)).not.toContain('2026-12/01/');
    expect(Object.keys(stored.dirs['2026-12/'][4])).toEqual(['10', '11', '01', '02']);
    expect(stored.dirs['2027-01/'][4]).toEqual({ '03': [4096, 0, 1], '04': [4096, 0, 1], '05': [4096, 0, 1] });
    // Stored shorter than it reads: paths after `.handoff/handoffs/`, a folder's equal times as 0.
    expect(Object.keys(stored.dirs)).toContain('2026-11/3/');
    expect(Object.keys(stored.files)).toContain('/.handoff/pins/p.md');
    expect(stored.dirs['2026-11/3/'][1]).toBe(0);
    // Times far apart, or of another precision, stored as they are, and read back to the bit.
    for (const [t, from] of [
      [12_345.678_9, 1_795_553_360_698.125],
      [1_795_553_360_698.125, 0.1],
      [Number.MAX_SAFE_INTEGER, 1],
      [1_795_553_360_698.125, 1_795_553_360_698.125],
    ] as const)
      expect(unpackTime(JSON.parse(JSON.stringify(packTime(t, from))), from)).toBe(t);
    expect(unpackTime('not a time!', 0)).toBeNaN();
    expect(unpackTime(undefined, 0)).toBeNaN();
    expect(stored.files['2026-11/01/a.md'].item.meta.goal).toBe('goal 1');
    const pinAt = (n: number) => stored.files[`/.handoff/pins/${id(n)}.md`];
    expect(pinAt(20)).toEqual({
      st: expect.any(Array),
      p: [
        'Rule 20.',
        Date.parse('2026-11-24T10:00:00.000Z') - Date.parse(new Date(idTimeOf(id(20))).toISOString()),
        'A <a@example.com>',
        'active',
      ],
    });
    expect(pinAt(21).p.slice(2)).toEqual([
      'A <a@example.com>',
      'retired',
      ['src/**', 'lib/*.ts'],
      id(20),
      '2026-11-25T10:00:00.000Z',
      'done',
    ]);
    expect(pinAt(22).p).toEqual(['', 'not a time', 'A <a@example.com>', 'active', null, null, null, 'only this']);
    expect(pinAt(23).item.meta.extra).toBe(1);
    expect(stored.files['/.handoff/pins/p.md'].item.body).toBe('Rule.');
    // Keys in the parser's order: a pin read back prints the same text.
    expect(JSON.stringify(back.files[`.handoff/pins/${id(21)}.md`])).toBe(
      JSON.stringify(open.files[`.handoff/pins/${id(21)}.md`]),
    );
    // Another shape: a miss, never an error.
    expect(unpackOpen({ table: [], dirs: { x: ['no'] }, files: {} })).toBeUndefined();
    expect(unpackOpen({ dirs: {}, files: {} })).toBeUndefined();
  });

  it('keeps what a writer parsed of its own files as a fresh read parses them', () => {
    const repo = makeRepo();
    repo.handoff(['new', 'first goal', '--no-edit']);
    // The second supersedes the first: the open index takes in the file new wrote as new parsed it.
    repo.handoff(['new', 'second goal', '--no-edit']);
    const index = path.join(repo.dir, '.git', 'handoff-open.json');
    const items = () =>
      Object.fromEntries(
        Object.entries(unpackOpen(JSON.parse(readFileSync(index, 'utf8')))?.files ?? {}).map(([f, kept]) => [
          f,
          kept.item,
        ]),
      );
    const written = items();
    expect(Object.keys(written).filter((f) => f.startsWith('.handoff/handoffs/'))).toHaveLength(1);
    rmSync(index);
    expect(resume(repo)).toContain('second goal');
    expect(items()).toEqual(written);
  });

  it('sees an open handoff edited in place with its size and modification time kept', () => {
    const repo = makeRepo();
    const file = repo.handoff(['new', 'goal aaaa', '--no-edit']).stdout.trim();
    const full = path.join(repo.dir, file);
    const when = 1_767_225_600;
    utimesSync(full, when, when);
    expect(resume(repo)).toContain('goal aaaa');
    const size = statSync(full).size;
    writeFileSync(full, readFileSync(full, 'utf8').replace('goal aaaa', 'goal bbbb'));
    utimesSync(full, when, when);
    expect(statSync(full).size).toBe(size);
    expect(resume(repo)).toContain('goal bbbb');
  });

  it('sees handoffs added by hand in either layout, reopened, and changed by a checkout', () => {
    const repo = makeRepo();
    const first = idOf(repo.handoff(['new', 'first goal', '--no-edit']).stdout);
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'first');
    expect(resume(repo)).toContain('first goal');
    // A file in the first (flat) layout, newer and open: it is the one resumed.
    const flat = id(99_999_999_999, 'zzzzzzzzzz').replace(/^01jx/, '01zz');
    repo.write(handoffPath(flat), handoffText({ id: flat, goal: 'written by hand' }));
    expect(resume(repo)).toContain('written by hand');
    repo.handoff(['done', flat]);
    expect(resume(repo)).toContain('first goal');
    // Done, then open again through reopen: seen both times.
    repo.handoff(['done', first]);
    expect(repo.handoff(['resume']).code).not.toBe(0);
    repo.handoff(['reopen', first]);
    expect(resume(repo)).toContain('first goal');
    // Another branch where the handoff is done: git replaces the file, and the index sees it.
    repo.git('checkout', '-q', '-b', 'other');
    repo.handoff(['done', first]);
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'done');
    repo.git('checkout', '-q', 'main');
    repo.git('checkout', '-q', '--', '.');
    repo.git('clean', '-fdq', '--', '.handoff');
    expect(resume(repo)).toContain('first goal');
    repo.git('checkout', '-q', 'other');
    const other = repo.handoff(['resume']);
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain("no open handoff on branch 'other'");
  });

  it('writes nothing back for a folder listed again and found as it was, and still sees what changes in it', () => {
    const repo = makeRepo();
    const file = repo.handoff(['new', 'first goal', '--no-edit']).stdout.trim();
    const open = path.join(repo.dir, '.git/handoff-open.json');
    expect(resume(repo)).toContain('first goal');
    const written = statSync(open).ino;
    // Its folder is seconds old: listed again at each start until it can vouch, and unchanged.
    expect(resume(repo)).toContain('first goal');
    expect(statSync(open).ino).toBe(written);
    // A handoff added beside it, then the first one gone: each seen.
    const other = id(99_999_999_999, 'yyyyyyyyyy').replace(/^01jx/, '01zz');
    const beside = path.join(path.dirname(file), `${other}.md`);
    repo.write(beside, handoffText({ id: other, goal: 'written beside it' }));
    expect(resume(repo)).toContain('written beside it');
    rmSync(path.join(repo.dir, beside));
    expect(resume(repo)).toContain('first goal');
    rmSync(path.join(repo.dir, file));
    expect(repo.handoff(['resume']).code).not.toBe(0);
  });

  it("keeps no open handoff's body and no file's text, reads the body from the file, and takes an older format as a miss", () => {
    const repo = makeRepo();
    const file = repo.handoff(['new', 'goal aaaa', '--no-edit']).stdout.trim();
    const full = path.join(repo.dir, file);
    writeFileSync(
      full,
      readFileSync(full, 'utf8').replace('## Next steps\n', '## Next steps\n\n- body line kept in the file\n'),
    );
    expect(resume(repo)).toContain('body line kept in the file');
    const open = path.join(repo.dir, '.git/handoff-open.json');
    const stored = JSON.parse(readFileSync(open, 'utf8'));
    expect(stored.format).toBe(5);
    const entry = unpackOpen(stored)?.files[file] as Record<string, unknown> & Kept;
    expect((entry.item.meta as { goal?: string }).goal).toBe('goal aaaa');
    expect(entry.item.body).toBeUndefined();
    expect(entry.text).toBeUndefined();
    expect(readFileSync(open, 'utf8')).not.toContain('body line kept in the file');
    // A file too young for its stat data is known by a hash of its text.
    if (entry.hash !== undefined) expect(entry.hash).toBe(textHash(readFileSync(full, 'utf8')));
    // The older format (whole items, a young file's text), with this file's stat data and another goal: a miss.
    writeFileSync(
      open,
      JSON.stringify({
        format: 1,
        version: stored.version,
        dirs: {},
        files: {
          [file]: { st: entry.st, item: { meta: { ...entry.item.meta, goal: 'stale goal' }, body: 'stale body' } },
        },
      }),
    );
    const out = resume(repo);
    expect(out).toContain('goal aaaa');
    expect(out).toContain('body line kept in the file');
    expect(out).not.toContain('stale');
    expect(JSON.parse(readFileSync(open, 'utf8')).format).toBe(5);
  });

  it('reports an unreadable open handoff and one in a new dated folder', () => {
    const repo = makeRepo();
    repo.handoff(['new', 'first goal', '--no-edit']);
    expect(resume(repo)).toContain('first goal');
    const later = '01zz000000000000000000000a';
    const file = handoffFile(later);
    mkdirSync(path.dirname(path.join(repo.dir, file)), { recursive: true });
    repo.write(
      file,
      `${handoffText({ id: later, goal: 'in a new folder' })}`.replace('status: "open"', 'status: [open'),
    );
    const r = repo.handoff(['resume']);
    expect(r.stderr).toContain(`skipped ${file}: invalid YAML front-matter`);
    repo.write(file, handoffText({ id: later, goal: 'in a new folder' }));
    expect(resume(repo)).toContain('in a new folder');
  });

  it("takes in a commit of an edited handoff in the pre-commit hook, and the cache keeps the index's entry", () => {
    const repo = makeRepo();
    expect(repo.handoff(['init', '--hooks']).code).toBe(0);
    const file = repo.handoff(['new', 'goal one', '--no-edit']).stdout.trim();
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'handoff');
    expect(repo.handoff(['list']).code).toBe(0);
    repo.write(file, repo.read(file).replace('goal one', 'goal two'));
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'edited');
    const open = unpackOpen(JSON.parse(readFileSync(path.join(repo.dir, '.git/handoff-open.json'), 'utf8')));
    expect((open?.files[file]?.item.meta as { goal?: string } | undefined)?.goal).toBe('goal two');
    expect(resume(repo)).toContain('goal two');
    expect(repo.handoff(['list']).code).toBe(0);
    const items = itemKeys(repo.dir);
    const mine = items.filter((k) => k.startsWith(`${file}\0`));
    // The index's entry (its blob id), which the work tree's shares while the file's stat data
    // are too new to vouch for it, and the work tree's by stat data, if any: nothing else.
    const blob = `${file}\0${repo.git('hash-object', '--', file).trim()}`;
    expect(mine).toContain(blob);
    expect(mine.filter((k) => k !== blob && !k.startsWith(`${file}\0s`))).toEqual([]);
  });
});

describe('handoff migrate', () => {
  it('moves flat handoffs into dated folders, keeping ids, links and merges working', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    const [a, b] = ['01m8000000000000000000000a', '01m8000000000000000000000b'];
    repo.write(handoffPath(a), handoffText({ id: a, goal: 'first', status: 'superseded', superseded_by: b }));
    repo.write(handoffPath(b), handoffText({ id: b, goal: 'second', parent: a }));
    repo.write('.handoff/handoffs/notes.md', 'not a handoff\n');
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'flat');
    repo.git('branch', 'side');
    const r = repo.handoff(['migrate']);
    expect(r.stdout).toContain('Moved 2 handoffs into dated folders');
    expect(r.stderr).toContain('left .handoff/handoffs/notes.md (its name is not an id)');
    expect(repo.files('.handoff/handoffs')).toEqual([
      `${path.relative('.handoff/handoffs', handoffFile(a))}`,
      `${path.relative('.handoff/handoffs', handoffFile(b))}`,
      'notes.md',
    ]);
    expect(repo.read(handoffFile(a))).toBe(
      handoffText({ id: a, goal: 'first', status: 'superseded', superseded_by: b }),
    );
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'migrate');
    expect(repo.git('show', '--stat', '-M', '--format=', 'HEAD')).toContain('=>');
    expect(resume(repo)).toContain('second');
    // A branch made before the move marks the handoff done where it was: the merge follows the rename.
    repo.git('checkout', '-q', 'side');
    expect(repo.handoff(['done', b]).code).toBe(0);
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'done on side');
    repo.git('checkout', '-q', 'main');
    repo.git('merge', '-q', '--no-edit', 'side');
    expect(repo.read(handoffFile(b))).toContain('status: "done"');
    expect(repo.files('.handoff/handoffs')).not.toContain(`${b}.md`);
    expect(repo.handoff(['migrate']).stdout).toContain('nothing moved');
    repo.git('rm', '-q', '.handoff/handoffs/notes.md');
    expect(repo.handoff(['roadmap']).code).toBe(0); // no hooks here to refresh it after the merge
    const check = repo.handoff(['check']);
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });
});
