// The commands that print committed text (pins, show, list, the roadmap) redact it, since a
// handoff or a pin can be written by hand or by an older version; --pin-candidates does not
// pin a constraint that holds a secret; and every kind of the corpus is redacted by the
// patterns in every seed tried.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/security/redact.js';
import { corpus, leaks } from '../fixtures/secrets/corpus.js';
import { makeRepo } from '../helpers.js';

const ID = '01jx7k2m9q8r4s5t6v7w8x9y0z';
const PIN = '01jx7k2m9q8r4s5t6v7w8x9y1a';

describe('secrets in committed files, printed by the read commands', () => {
  const planted = corpus(7).filter((p) => p.oneLine);
  const secrets = planted.slice(0, 12);
  const text = secrets.map((p) => p.text).join('\n');
  const goal = `rotate ${secrets[0]!.text}`;

  function plantedRepo() {
    const repo = makeRepo();
    repo.handoff(['init']);
    repo.commit('planted', {
      [`.handoff/handoffs/${ID}.md`]: `---\nid: "${ID}"\ngoal: ${JSON.stringify(goal)}\nstatus: "open"\ncreated: "2026-01-05T10:00:00.000Z"\nauthor: "A"\nbranch: "main"\nbase: null\nhead: null\nparent: null\nfiles: []\n---\n## Goal\n\n${goal}\n\n## Next steps\n\n${text}\n`,
      [`.handoff/pins/${PIN}.md`]: `---\nid: "${PIN}"\ncreated: "2026-01-05T10:00:00.000Z"\nauthor: "A"\nstatus: "active"\n---\nthe keys are\n${text}\n`,
    });
    return repo;
  }

  const leaked = (output: string) => secrets.filter((p) => leaks(output, p.material)).map((p) => p.kind);

  it('pins, show and list redact what they print, text and --json, and say so on stderr', () => {
    const repo = plantedRepo();
    for (const args of [
      ['pins'],
      ['pins', '--json'],
      ['show', ID],
      ['show', ID, '--json'],
      ['list'],
      ['list', '--json'],
    ]) {
      const r = repo.handoff(args);
      expect(r.code, args.join(' ')).toBe(0);
      expect(leaked(r.stdout + r.stderr), args.join(' ')).toEqual([]);
      expect(r.stdout, args.join(' ')).toContain('[REDACTED:');
      expect(r.stderr, args.join(' ')).toMatch(
        /^handoff: redacted \d+ secrets? \(.+\) from .+; the files under \.handoff\/ still hold them$/m,
      );
    }
    // The files keep their bytes: only what is printed is redacted.
    expect(repo.read(`.handoff/pins/${PIN}.md`)).toContain(secrets[0]!.material);
  });

  it('list remembers its goals found clean, and still redacts a goal with a secret at every run', () => {
    const repo = makeRepo();
    repo.handoff(['init']);
    const handoff = (id: string, g: string) =>
      `---\nid: "${id}"\ngoal: ${JSON.stringify(g)}\nstatus: "open"\ncreated: "2026-01-05T10:00:00.000Z"\nauthor: "A"\nbranch: "main"\nbase: null\nhead: null\nparent: null\nfiles: []\n---\n## Goal\n\n${g}\n`;
    repo.commit('clean', { [`.handoff/handoffs/${ID}.md`]: handoff(ID, 'add team billing') });
    const cleanFile = path.join(repo.dir, '.git', 'handoff-clean.json');
    const remembered = () => JSON.parse(readFileSync(cleanFile, 'utf8')) as { lists: string[]; longLists: string[] };
    const first = repo.handoff(['list']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('add team billing');
    // The goals shown, as one list kept by its digest (never their text, however few): the
    // next run that shows the same ones runs no pattern.
    const kept = remembered();
    expect(kept.longLists).toHaveLength(1);
    expect(readFileSync(cleanFile, 'utf8')).not.toContain('add team billing');
    expect(repo.handoff(['list'])).toEqual(first);
    expect(remembered()).toEqual(kept);
    // A goal with a secret: never remembered, so redacted at each run, with the notice.
    const other = '01jx7k2m9q8r4s5t6v7w8x9y2b';
    repo.commit('planted', { [`.handoff/handoffs/${other}.md`]: handoff(other, goal) });
    for (const run of [1, 2]) {
      const r = repo.handoff(['list']);
      expect(r.code, `run ${run}`).toBe(0);
      expect(r.stdout, `run ${run}`).toContain('[REDACTED:');
      expect(leaked(r.stdout + r.stderr), `run ${run}`).toEqual([]);
      expect(r.stderr, `run ${run}`).toMatch(/^handoff: redacted \d+ secrets? \(.+\) from the handoffs listed; /m);
    }
    // Nothing more remembered: a list with a secret in it is not clean.
    expect(remembered().longLists).toEqual(kept.longLists);
  });

  it('the roadmap, written and printed, carries no secret', () => {
    const repo = plantedRepo();
    const r = repo.handoff(['roadmap']);
    expect(r.code).toBe(0);
    const roadmap = readFileSync(path.join(repo.dir, '.handoff/ROADMAP.md'), 'utf8');
    expect(roadmap).toContain('[REDACTED:');
    expect(leaked(roadmap + r.stdout + r.stderr)).toEqual([]);
  });

  it('check --base shows a pin with a secret redacted, in every format, and names the secret among what stands out', () => {
    const repo = makeRepo();
    repo.handoff(['init']);
    repo.handoff(['roadmap']);
    repo.commit('init');
    const base = repo.git('rev-parse', 'HEAD').trim();
    repo.git('checkout', '-q', '-b', 'stranger');
    repo.write(
      `.handoff/pins/${PIN}.md`,
      `---\nid: "${PIN}"\ncreated: "2026-01-05T10:00:00.000Z"\nauthor: "A"\nstatus: "active"\n---\ndeploy with ${secrets[1]!.text}\n`,
    );
    repo.handoff(['roadmap']);
    repo.commit('a pin');
    for (const format of [[], ['--format', 'github'], ['--json']]) {
      const r = repo.handoff(['check', '--base', base, ...format]);
      expect(r.code, format.join(' ')).toBe(0);
      expect(leaked(r.stdout + r.stderr), format.join(' ')).toEqual([]);
      expect(r.stdout, format.join(' ')).toContain('a secret (');
      expect(r.stdout, format.join(' ')).toContain('[REDACTED:');
    }
  });

  it('--pin-candidates pins the clean constraint and skips the one with a secret, saying which line', () => {
    const repo = makeRepo();
    repo.handoff(['init']);
    const line = (i: number, content: string) =>
      JSON.stringify({
        parentUuid: null,
        isSidechain: false,
        userType: 'external',
        cwd: repo.dir,
        sessionId: 's',
        version: '2.0.64',
        gitBranch: 'main',
        type: 'user',
        message: { role: 'user', content },
        uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        timestamp: '2026-01-05T10:00:00.000Z',
      });
    const secret = planted.find((p) => p.kind === 'postgres-url')!;
    repo.write(
      't.jsonl',
      `${line(1, 'never touch the auth module.')}\n${line(2, `always connect with ${secret.text}`)}\n`,
    );
    const r = repo.handoff(['new', 'work', '--from', 't.jsonl', '--pin-candidates', '--no-edit']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/handoff: not pinned from .+ line 2: it holds a secret/);
    const pins = repo.files('.handoff/pins').map((f) => repo.read(`.handoff/pins/${f}`));
    expect(pins.length).toBe(1);
    expect(pins[0]).toContain('never touch the auth module');
    expect(leaks(pins.join('\n') + r.stdout + r.stderr, secret.material)).toBe(false);
  });
});

describe('the patterns on the whole corpus', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`seed ${seed}: every kind is redacted, its label kept where it has one`, () => {
      const missed = corpus(seed)
        .filter((p) => leaks(redactSecrets(p.text).text, p.material))
        .map((p) => p.kind);
      expect(missed).toEqual([]);
    });
  }

  it('the corpus has at least 100 kinds, each with at least eight characters of material', () => {
    const kinds = corpus(1);
    expect(new Set(kinds.map((p) => p.kind)).size).toBeGreaterThanOrEqual(100);
    expect(kinds.filter((p) => p.material.length < 8)).toEqual([]);
  });
});
