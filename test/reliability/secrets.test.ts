// Secrets planted in goals, handoff bodies, commit subjects, file names, pins and
// hand-written handoff files: none may reach a file under .handoff/ or a resume prompt.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers.js';
import { CORPUS, FIRST_CUT_GAPS, material } from './secrets-corpus.js';
import { start } from './spawn.js';

const ID = '01jx7k2m9q8r4s5t6v7w8x9y0z';

function allFiles(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => `${e.name}\n${readFileSync(path.join(e.parentPath, e.name), 'utf8')}`)
    .join('\n');
}

describe(`secrets: ${CORPUS.length} kinds planted in goals, bodies, commits, file names, pins and old handoffs`, () => {
  let handoffDir = '';
  let resumeText = '';
  let resumeJson = '';
  const notices: string[] = [];
  const pinResults = new Map<string, { code: number | null; stderr: string }>();

  beforeAll(async () => {
    // helpers.ts removes temp directories after each test: gather everything here.
    const repo = makeRepo();
    repo.handoff(['init']);
    const oneWord = CORPUS.filter((p) => p.oneWord);
    // A commit whose subject carries the secrets, and files named after them.
    repo.commit(
      `rotate ${oneWord.map((p) => p.value).join(' ')}`,
      Object.fromEntries(oneWord.map((p, i) => [`keys/${i}-${p.value}.txt`, 'x\n'])),
    );
    repo.git('checkout', '-q', '-b', 'feature');
    repo.commit(
      `use ${oneWord.map((p) => p.value).join(' ')}`,
      Object.fromEntries(oneWord.map((p, i) => [`conf/${i}-${p.value}.env`, 'y\n'])),
    );
    for (const [i, p] of oneWord.entries()) repo.write(`untracked/${i}-${p.value}`, 'z\n');
    const everything = CORPUS.map((p) => p.value).join('\n');
    const a = repo.handoff([
      'new',
      `deploy with ${CORPUS.filter((p) => !p.value.includes('\n'))
        .map((p) => p.value)
        .join(' and ')}`,
      '--no-edit',
    ]);
    expect(a.code).toBe(0);
    notices.push(a.stderr);
    writeFileSync(path.join(repo.dir, 'body.md'), `## Goal\n\nkeys below\n\n## Notes\n\n${everything}\n`);
    const b = repo.handoff(['new', 'second', '-F', 'body.md']);
    expect(b.code).toBe(0);
    notices.push(b.stderr);
    // Each secret pinned on its own, all at once.
    const pins = await Promise.all(CORPUS.map((p) => start(repo.dir, ['pin', `the key is ${p.value}`]).done));
    CORPUS.forEach((p, i) => pinResults.set(p.kind, pins[i]!));
    handoffDir = allFiles(path.join(repo.dir, '.handoff'));
    // A handoff written by hand (or by an older version) that carries every secret.
    const planted = `---\nid: "${ID}"\ngoal: ${JSON.stringify(`old goal ${everything}`)}\nstatus: "open"\ncreated: "2026-01-05T10:00:00.000Z"\nauthor: "A"\nbranch: "elsewhere"\nbase: null\nhead: null\nparent: null\nfiles: []\n---\n## Goal\n\nold\n\n## Next steps\n\n${everything}\n\n## Decisions\n\n${everything}\n`;
    repo.write(`.handoff/handoffs/${ID}.md`, planted);
    const text = repo.handoff(['resume', ID]);
    const json = repo.handoff(['resume', ID, '--json']);
    resumeText = text.stdout + text.stderr;
    resumeJson = json.stdout + json.stderr;
    notices.push(text.stderr);
  });

  for (const planted of CORPUS) {
    const test = FIRST_CUT_GAPS.has(planted.kind) ? it.fails : it;
    test(`${planted.kind}: not in .handoff/, not in resume output, pin refused`, () => {
      // The whole key, and its tail: a redaction that stops short must fail too.
      for (const secret of [material(planted), material(planted).slice(-12)]) {
        expect(handoffDir.includes(secret), 'written under .handoff/').toBe(false);
        expect(resumeText.includes(secret), 'printed by resume').toBe(false);
        expect(resumeJson.includes(secret), 'printed by resume --json').toBe(false);
      }
      const pin = pinResults.get(planted.kind)!;
      expect(pin.code).toBe(1);
      expect(pin.stderr).toContain('looks like it holds a secret');
    });
  }

  it('the user is told, in one line, what was redacted and how to keep it', () => {
    for (const stderr of notices)
      expect(stderr).toMatch(
        /^handoff: redacted \d+ secrets? \(.+\) from .+; handoff (new|resume) --allow-secret .+$/m,
      );
  });

  it('--allow-secret keeps a false positive: a pin stays verbatim, a goal is kept', () => {
    const repo = makeRepo();
    const fake = 'gh' + 'p_' + 'Ex4mpleT0kenF0rmatN0tRealAbCdEfGhIjKl';
    const refused = repo.handoff(['pin', `example token format: ${fake}`]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--allow-secret');
    const kept = repo.handoff(['pin', `example token format: ${fake}`, '--allow-secret']);
    expect(kept.code).toBe(0);
    const file = path.join(repo.dir, kept.stdout.trim().split(': ').pop()!);
    expect(readFileSync(file, 'utf8').endsWith(`example token format: ${fake}`)).toBe(true);
    const made = repo.handoff(['new', `document ${fake}`, '--no-edit', '--allow-secret']);
    expect(made.stderr).not.toContain('redacted');
    expect(repo.read(made.stdout.trim())).toContain(fake);
  });

  it('planted figures', () => {
    const leaked = CORPUS.filter(
      (p) => handoffDir.includes(material(p)) || resumeText.includes(material(p)) || resumeJson.includes(material(p)),
    );
    console.log(
      `secrets: ${CORPUS.length} kinds planted in 8 places each; leaked: ${leaked.length} (${leaked.map((p) => p.kind).join(', ') || 'none'}); first-cut gaps expected: ${FIRST_CUT_GAPS.size}`,
    );
    expect(leaked.filter((p) => !FIRST_CUT_GAPS.has(p.kind)).map((p) => p.kind)).toEqual([]);
  });
});
