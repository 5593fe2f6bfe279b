// The on-disk format: parse/serialize round trips, preservation of what a person added,
// and the section scanner checked against remark on the same inputs.
import { remark } from 'remark';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import { describe, expect, it } from 'vitest';
import { parseHandoff, serializeHandoff, updateHandoff, type HandoffMeta } from '../src/store/handoff.js';
import { parseBody, renderBody, thousands } from '../src/store/markdown.js';
import { parsePin, retirePin, serializePin } from '../src/store/pin.js';
import {
  combineChanges,
  foldTracked,
  parseLog,
  parseNameStatus,
  parseNumstat,
  TRACKED_CAP,
  UNTRACKED_CAP,
  untrackedEntries,
} from '../src/git/git-output.js';
import type { FileChange } from '../src/store/handoff.js';
import { resolveId, shortId } from '../src/store/id.js';
import { newId } from '../src/store/ids.js';
import { fill } from '../src/store/template.js';

const meta: HandoffMeta = {
  id: '01m82nhbsz8f055py1rnm6tr6v',
  goal: 'a: b # c --- \' " | \n---\n- leading dash 😀',
  status: 'open',
  created: '2026-11-22T22:21:12.351Z',
  author: 'Ann <ann@example.com>',
  branch: 'feature/x',
  base: '1e51234000000000000000000000000000000000',
  head: null,
  parent: null,
  files: [
    { path: 'src/a b/ü.ts', change: 'renamed', from: 'old name.ts', insertions: 3, deletions: 1, state: 'staged' },
    { path: 'img.png', change: 'added', binary: true, state: 'committed' },
    { path: 'new\nline.txt', change: 'added', state: 'untracked' },
    { path: 'node_modules/', change: 'added', files: 3000, state: 'untracked' },
  ],
};

describe('handoff files', () => {
  it('round-trip byte for byte, hostile strings included', () => {
    const body = '## Goal\n\nx\n\n## Next steps\n\n- one\n';
    const text = serializeHandoff(meta, body);
    const parsed = parseHandoff(text, 'h.md');
    expect(parsed.meta).toEqual(meta);
    expect(parsed.bodyText).toBe(body);
    expect(serializeHandoff(parsed.meta, parsed.bodyText)).toBe(text);
    // Hashes and times stay strings for YAML 1.1 readers too: they are quoted.
    expect(text).toContain('base: "1e51234000000000000000000000000000000000"');
    // A compaction's step, and a body whose text starts before any heading.
    const step = { ...meta, step: 'focus on: the form # not a comment' };
    const preamble = 'notes before any heading\n\n## Goal\n\nx\n';
    const again = parseHandoff(serializeHandoff(step, preamble), 'h.md');
    expect(again.meta).toEqual(step);
    expect(again.body.preamble).toBe('notes before any heading\n\n');
    expect(serializeHandoff(again.meta, again.bodyText)).toBe(serializeHandoff(step, preamble));
    expect(() => parseHandoff(serializeHandoff(meta, 'x').replace('status:', 'step: 3\nstatus:'), 'h.md')).toThrow(
      /front-matter 'step' must be a text, e.g. step: "focus on the form"; found 3/,
    );
  });

  it('round-trip a handoff closed by the merge of its branch (landed)', () => {
    const closed: HandoffMeta = {
      ...meta,
      status: 'done',
      finished: '2026-11-23T00:00:00.000Z',
      landed: '86d11e16a62d45946962e8a55baf55db8210f99d',
    };
    const text = serializeHandoff(closed, '## Goal\n\nx\n');
    expect(parseHandoff(text, 'h.md').meta).toEqual(closed);
    expect(text).toContain('landed: "86d11e16a62d45946962e8a55baf55db8210f99d"');
    expect(() => parseHandoff(text.replace(/landed: .*/, 'landed: "--output=x"'), 'h.md')).toThrow(
      "h.md: front-matter 'landed' must be a commit hash or null",
    );
  });

  it('keeps unknown keys, comments and sections through an update', () => {
    const text = serializeHandoff(meta, '## Goal\n\nx\n\n## Reviewer notes\n\nkeep this\n').replace(
      'status: "open"\n',
      'status: "open"\n# a comment a person wrote\nticket: JIRA-12\n',
    );
    const updated = updateHandoff(parseHandoff(text, 'h.md'), { status: 'done', finished: '2026-11-23T00:00:00.000Z' });
    expect(updated).toContain('# a comment a person wrote\nticket: JIRA-12\n');
    expect(updated).toContain('status: "done"');
    expect(updated.endsWith('## Reviewer notes\n\nkeep this\n')).toBe(true);
    expect(updated.replace('status: "done"', 'status: "open"').replace(/finished: .*\n/, '')).toBe(text);
  });

  it('names the file and the problem when front-matter is broken', () => {
    expect(() => parseHandoff('no front matter', 'x.md')).toThrow(/^x\.md: expected the file to start with a '---'/);
    expect(() => parseHandoff('---js\nmodule.exports = {}\n---\n', 'x.md')).toThrow(/plain '---' line.*never run/);
    expect(() => parseHandoff('---\nid: [\n---\n', 'x.md')).toThrow(/^x\.md: invalid YAML front-matter/);
    expect(() => parseHandoff('---\nid: "01m82nhbsz8f055py1rnm6tr6v"\n---\n', 'x.md')).toThrow(
      /x\.md: front-matter 'goal' must be the goal text.*missing/,
    );
    expect(() => parseHandoff('---\nfn: !!js/function "function(){}"\n---\n', 'x.md')).toThrow(/x\.md: invalid YAML/);
  });
});

describe('pins', () => {
  it('keep their text byte for byte', () => {
    for (const text of [
      'plain',
      'trailing spaces   ',
      'newlines\n\n',
      '---\nnot front matter\n---\n',
      '```\ncode\n```',
      'ü 😀 "q" \'s\' : # |',
      '\n leading',
    ]) {
      const meta = {
        id: '01m82nhbf9akf4nc6dq16mjhjv',
        created: '2026-11-22T22:21:11.977Z',
        author: 'A',
        status: 'active' as const,
      };
      const file = serializePin(meta, text);
      const pin = parsePin(file, 'p.md');
      expect(pin.text).toBe(text);
      expect(serializePin(pin.meta, pin.text)).toBe(file);
      const retired = parsePin(retirePin(pin, '2026-11-23T00:00:00.000Z', 'done with it'), 'p.md');
      expect(retired.text).toBe(text);
      expect(retired.meta).toMatchObject({ status: 'retired', reason: 'done with it' });
    }
  });
});

describe('the section scanner', () => {
  const samples = [
    '## A\n\ntext\n\n## B\n',
    'intro\n## A ##\n```\n## not a heading\n```\n## B\n',
    '~~~~\n## inside\n~~~\n## still inside\n~~~~\n## Out\n',
    '   ## indented three\n    ## indented four is code\n##nospace\n## \n',
    '### level three\n## Two\n# One\n',
    '```js\n## in code\n',
  ];
  it('splits where remark sees level-2 headings, and loses nothing', async () => {
    const processor = remark().use(remarkGfm).use(remarkFrontmatter);
    for (const sample of samples) {
      const body = parseBody(sample);
      expect(renderBody(body)).toBe(sample);
      const tree = processor.parse(sample);
      const titles = tree.children
        .filter((n) => n.type === 'heading' && n.depth === 2)
        .map((n) =>
          sample
            .slice(n.position!.start.offset, n.position!.end.offset)
            .replace(/^ *##/, '')
            .replace(/#+ *$/, '')
            .trim(),
        );
      expect(body.sections.map((s) => s.title)).toEqual(titles);
    }
  });
});

describe('git output parsers', () => {
  it('read -z name-status and numstat, renames and binaries included', () => {
    const nameStatus = 'M\0a.ts\0R087\0old name.ts\0new\nname.ts\0A\0img.png\0D\0gone.ts\0';
    const numstat = '3\t1\ta.ts\0' + '2\t2\t\0old name.ts\0new\nname.ts\0' + '-\t-\timg.png\0' + '0\t5\tgone.ts\0';
    const files = combineChanges({
      overall: parseNameStatus(nameStatus),
      stats: parseNumstat(numstat),
      staged: new Set(['img.png']),
      unstaged: new Set(['a.ts']),
      untracked: ['u.txt'],
    });
    expect(files).toEqual([
      { path: 'a.ts', change: 'modified', insertions: 3, deletions: 1, state: 'unstaged' },
      { path: 'gone.ts', change: 'deleted', insertions: 0, deletions: 5, state: 'committed' },
      { path: 'img.png', change: 'added', binary: true, state: 'staged' },
      { path: 'new\nname.ts', change: 'renamed', from: 'old name.ts', insertions: 2, deletions: 2, state: 'committed' },
      { path: 'u.txt', change: 'added', state: 'untracked' },
    ]);
  });

  it('read git log in LOG_FORMAT: subjects keep their spaces, an empty log is no commits', () => {
    const a = 'a'.repeat(40);
    const b = 'b'.repeat(40);
    // git ends each commit's format with a newline, which leads the next hash.
    expect(parseLog(`${a}\0fix: the  thing \0\n${b}\0\0\n`)).toEqual([
      { hash: a, subject: 'fix: the  thing ' },
      { hash: b, subject: '' },
    ]);
    expect(parseLog('')).toEqual([]);
  });
});

describe('untracked directories', () => {
  const many = (dir: string, n: number) => Array.from({ length: n }, (_, i) => `${dir}f${i}.js`);
  it('fold a wholly untracked directory past the threshold into one entry, and list a small one file by file', () => {
    const files = [...many('node_modules/', 3000), 'src/new/a.ts', 'src/new/b.ts', 'notes.txt'];
    const entries = untrackedEntries(files, ['node_modules/', 'src/new/', 'notes.txt'], 20);
    expect(entries.map((e) => [e.path, e.files]).sort()).toEqual([
      ['node_modules/', 3000],
      ['notes.txt', undefined],
      ['src/new/a.ts', undefined],
      ['src/new/b.ts', undefined],
    ]);
    // A directory that also holds tracked files is never folded by the threshold.
    expect(untrackedEntries(many('src/', 30), ['src/f0.js'], 20)).toHaveLength(30);
  });

  it(`keep at most ${UNTRACKED_CAP} untracked entries`, () => {
    const dirs = Array.from({ length: 150 }, (_, i) => `pkg${i}/`);
    const files = dirs.flatMap((d) => many(d, 3));
    // Under the threshold each directory would list its 3 files (450 entries): past the cap they fold.
    const folded = untrackedEntries(files, dirs, 20);
    expect(folded).toHaveLength(150);
    expect(folded.every((e) => e.files === 3)).toBe(true);
    // Loose files in partly tracked directories fold by their top-level directory last.
    const loose = Array.from({ length: 300 }, (_, i) => `src/m${i % 3}/x${i}.ts`);
    expect(untrackedEntries(loose, loose, 20)).toEqual([
      { path: 'src/', change: 'added', state: 'untracked', files: 300 },
    ]);
  });
});

describe('tracked changes past the cap', () => {
  const added = (p: string): FileChange => ({
    path: p,
    change: 'added',
    insertions: 2,
    deletions: 0,
    state: 'committed',
  });
  it(`fold into the deepest folders whose list keeps ${TRACKED_CAP} entries or fewer, by state, lines summed`, () => {
    // 100 folders of 10 subfolders of 3 files: the subfolders (1,000) are too many, the folders fit.
    const files = Array.from({ length: 3000 }, (_, i) =>
      added(`lib/d${Math.floor(i / 30)}/e${Math.floor(i / 3) % 10}/f${i}.ts`),
    );
    const mixed: FileChange[] = [
      { path: 'lib/d0/e0/f0.ts', change: 'modified', insertions: 5, deletions: 4, state: 'unstaged' },
      { path: 'lib/d0/e0/f1.ts', change: 'deleted', deletions: 7, state: 'unstaged' },
    ];
    const folded = foldTracked([...files, ...mixed, added('README.md'), added('src/one.ts')]);
    expect(folded.length).toBeLessThanOrEqual(TRACKED_CAP);
    expect(folded.filter((f) => f.files !== undefined).length).toBe(101);
    expect(folded).toContainEqual({ ...added('lib/d7/'), insertions: 60, files: 30 });
    // Another state is another entry; mixed changes are 'modified'.
    expect(folded).toContainEqual({
      path: 'lib/d0/',
      change: 'modified',
      insertions: 5,
      deletions: 11,
      files: 2,
      state: 'unstaged',
    });
    // A file alone in its folder, and a file at the top, stay as they are.
    expect(folded).toContainEqual(added('README.md'));
    expect(folded).toContainEqual(added('src/one.ts'));
    // Every file is counted once.
    expect(folded.reduce((n, f) => n + (f.files ?? 1), 0)).toBe(3004);
    // Under the cap: the list as it was.
    expect(foldTracked(files.slice(0, TRACKED_CAP))).toEqual(files.slice(0, TRACKED_CAP));
  });

  it('fold by top-level folder when no deeper level fits, and round-trip through a handoff file', () => {
    const files = Array.from({ length: 1000 }, (_, i) => added(`pkg${i % 300}/a/f${i}.ts`));
    const folded = foldTracked(files);
    expect(folded.length).toBe(300);
    expect(folded.every((f) => f.path.startsWith('pkg') && !f.path.includes('/a/'))).toBe(true);
    const text = serializeHandoff({ ...meta, files: [...folded] }, '## Goal\n\nx\n');
    expect(parseHandoff(text, 'h.md').meta.files).toEqual(folded);
  });
});

describe('ids and templates', () => {
  const ids = ['01m82nhbf9akf4nc6dq16mjhjv', '01m82nhbsz8f055py1rnm6tr6v', '01m8300000000000000000000a'];
  it('resolve unique prefixes and refuse ambiguous or unknown ones', () => {
    expect(resolveId('01M82NHBS', ids, 'handoff')).toBe(ids[1]);
    expect(() => resolveId('01m82nhb', ids, 'handoff')).toThrow(/ambiguous: it matches 2 handoffs/);
    expect(() => resolveId('01zz', ids, 'handoff')).toThrow(/no handoff matches '01zz'/);
    expect(() => resolveId('../etc', ids, 'pin')).toThrow(/not a pin id/);
    expect(shortId(ids[0]!, ids)).toBe('01m82nhbf');
    expect(shortId(ids[2]!, ids)).toBe('01m83000');
  });
  it('make lowercase ULIDs: the time first, then random characters, in creation order within one millisecond', () => {
    const ms = Date.UTC(2026, 10, 24, 12);
    const ids = Array.from({ length: 200 }, () => newId(ms));
    for (const id of ids) expect(id).toMatch(/^[0-9a-hjkmnp-tv-z]{26}$/);
    expect(new Set(ids.map((id) => id.slice(0, 10)))).toEqual(new Set([ids[0]!.slice(0, 10)]));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    // The random part is drawn afresh for a later millisecond: over 200 draws every character of the alphabet shows up.
    const later = Array.from({ length: 200 }, (_, i) => newId(ms + 1 + i).slice(10));
    expect(new Set(later.join('')).size).toBe(32);
    expect(newId(ms + 1000) > ids.at(-1)!).toBe(true);
  });

  it('write counts with commas as en-US does', () => {
    for (const n of [0, 7, 999, 1000, 12345, 999999, 1234567, -1234, 2 ** 53 - 1, 1.5, 1e21])
      expect(thousands(n)).toBe(n.toLocaleString('en-US'));
  });

  it('fill placeholders exactly and drop empty ones with their blank line', () => {
    expect(fill('a\n\n{{x}}\n\n{{y}}\n\nb\n', { x: 'X  \n\n' })).toBe('a\n\nX  \n\n\n\nb\n');
    expect(fill('a\n\n{{x}}\n\n{{y}}\n', {})).toBe('a\n');
  });
});
