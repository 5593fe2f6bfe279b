// Every read command's --json follows docs/json.md: one object, schema_version first,
// snake_case keys at every depth, lists as arrays, repository-relative paths.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir, TRANSCRIPTS } from './helpers.js';

const LISTS = new Set([
  'handoffs',
  'pins',
  'sessions',
  'integrations',
  'findings',
  'hooks',
  'files',
  'sections',
  'commits',
  'scope',
  'skipped',
]);

function walk(value: unknown, where: string, problems: string[]): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => walk(v, `${where}[${i}]`, problems));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, v] of Object.entries(value)) {
    if (!/^[a-z][a-z0-9_]*$/.test(key)) problems.push(`${where}.${key}: not snake_case`);
    if (LISTS.has(key) && !Array.isArray(v)) problems.push(`${where}.${key}: a list that is not an array`);
    if (v === undefined) problems.push(`${where}.${key}: undefined`);
    walk(v, `${where}.${key}`, problems);
  }
}

describe('--json', () => {
  it('has one shape for every read command', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    expect(repo.handoff(['pin', '--scope', 'src', 'keep the API stable']).code).toBe(0);
    repo.write('src/app.ts', 'export const app = 1;\n');
    const id = path.basename(repo.handoff(['new', 'ship the app']).stdout.trim(), '.md');
    expect(repo.handoff(['roadmap']).code).toBe(0);
    expect(repo.handoff(['hooks', 'install']).code).toBe(0);
    repo.commit('work');
    const transcript = path.join(TRANSCRIPTS, 'claude-code/codemie-4c2ddfdc-v2.0.64.jsonl');
    const home = { HOME: tempDir() };
    const commands: Array<[string[], string[]]> = [
      [['list', '--json'], ['handoffs']],
      [
        ['show', id, '--json'],
        ['id', 'goal', 'files', 'file', 'sections'],
      ],
      [
        ['resume', '--json'],
        ['prompt', 'id', 'pins', 'files', 'since', 'next_steps'],
      ],
      [['pins', '--json'], ['pins']],
      [['pins', '--all', '--json'], ['pins']],
      [['sessions', '--json'], ['sessions']],
      [
        ['meter', '--json'],
        ['agent', 'context', 'above'],
      ],
      [
        ['meter', '--json', '--force', '--from', transcript],
        ['agent', 'session', 'file', 'model', 'context', 'threshold', 'above', 'compactions'],
      ],
      [
        ['check', '--json'],
        ['ok', 'findings'],
      ],
      [
        ['roadmap', '--check', '--json'],
        ['file', 'up_to_date', 'exists'],
      ],
      [
        ['hooks', 'status', '--json'],
        ['dir', 'hooks', 'merge_driver'],
      ],
      [['agent', 'status', '--json'], ['integrations']],
    ];
    for (const [args, keys] of commands) {
      const r = repo.handoff(args, { env: home, cwd: path.join(repo.dir, 'src') });
      expect([0, 3], `${args.join(' ')}: ${r.stderr}`).toContain(r.code);
      const json = JSON.parse(r.stdout) as Record<string, unknown>;
      expect(Object.keys(json)[0], args.join(' ')).toBe('schema_version');
      expect(json.schema_version).toBe(1);
      for (const key of keys) expect(json, `${args.join(' ')} has ${key}`).toHaveProperty(key);
      const problems: string[] = [];
      walk(json, args[0]!, problems);
      expect(problems).toEqual([]);
      // Paths are the repository's, not this machine's, even when run from a subdirectory.
      expect(r.stdout, args.join(' ')).not.toContain(repo.dir);
      expect(r.stdout).not.toContain('../');
    }
    const shown = JSON.parse(repo.handoff(['show', id, '--json']).stdout);
    expect(shown.sections[0]).toEqual({ title: 'Goal', body: 'ship the app' });
    const resumed = JSON.parse(repo.handoff(['resume', '--json']).stdout);
    expect(resumed.files).toEqual(shown.files);
    expect(resumed.pins[0]).toMatchObject({
      text: 'keep the API stable',
      scope: ['src'],
      file: expect.stringMatching(/^\.handoff\/pins\/\w+\.md$/),
    });
    expect(resumed.since).toHaveProperty('head_found', true);
  });

  it('keeps every documented key, null when the file leaves it out', () => {
    const repo = makeRepo();
    expect(repo.handoff(['pin', 'keep the API stable']).code).toBe(0);
    const noHandoff = JSON.parse(repo.handoff(['resume', '--json']).stdout);
    expect(noHandoff.id).toBeNull();
    expect(noHandoff.reason).toEqual(expect.any(String));
    expect(noHandoff.since).toMatchObject({ committed_since: [], renamed: [], put_back: [] });
    expect(noHandoff.pins[0]).toHaveProperty('scope', null);
    repo.write('a.txt', 'a\n');
    expect(repo.handoff(['new', 'one', '--no-edit']).code).toBe(0);
    const listed = JSON.parse(repo.handoff(['list', '--json']).stdout);
    expect(listed.handoffs[0]).toMatchObject({ superseded_by: null, finished: null, status: 'open' });
    expect(JSON.parse(repo.handoff(['resume', '--json']).stdout).reason).toBeNull();
    expect(repo.handoff(['done']).code).toBe(0);
    expect(JSON.parse(repo.handoff(['list', '--json']).stdout).handoffs[0].finished).toEqual(expect.any(String));
    const pins = JSON.parse(repo.handoff(['pins', '--json']).stdout).pins;
    expect(pins[0]).toMatchObject({ scope: null, supersedes: null, retired: null, reason: null, superseded_by: null });
  });

  it("prints resume's object with the reason when there is nothing to resume, and exits 1", () => {
    const repo = makeRepo();
    const r = repo.handoff(['resume', '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("handoff: no open handoff on branch 'main'");
    const json = JSON.parse(r.stdout);
    expect(Object.keys(json)[0]).toBe('schema_version');
    expect(json).toMatchObject({ prompt: '', id: null, file: null, pins: [], files: [], from: null, skipped: [] });
    expect(json.reason).toMatch(/^no open handoff on branch 'main'/);
    expect(json.since).toMatchObject({ committed_since: [], renamed: [], put_back: [] });
    const problems: string[] = [];
    walk(json, 'resume', problems);
    expect(problems).toEqual([]);
  });

  it('names every file a read command could not read under skipped', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    expect(repo.handoff(['pin', 'keep the API stable']).code).toBe(0);
    repo.write('a.txt', 'a\n');
    expect(repo.handoff(['new', 'one', '--no-edit']).code).toBe(0);
    const handoff = '.handoff/handoffs/2026-01/05/01jx000000000009abcdefghjk.md';
    const pin = '.handoff/pins/01jx000000000008abcdefghjk.md';
    repo.write(handoff, '---\nid: "01jx000000000009abcdefghjk"\ngoal: [unclosed\n---\n');
    repo.write(pin, '---\nid: nope\n---\nbroken\n');
    const cases: Array<[string[], string[]]> = [
      [['list', '--json'], [handoff]],
      // The team's view reads every file of the work tree, pins too.
      [
        ['list', '--all', '--json'],
        [handoff, pin],
      ],
      [['pins', '--json'], [pin]],
      [['pins', '--all', '--json'], [pin]],
      [
        ['resume', '--json'],
        [handoff, pin],
      ],
      [
        ['roadmap', '--json'],
        [handoff, pin],
      ],
      [
        ['roadmap', '--check', '--json'],
        [handoff, pin],
      ],
      [
        ['roadmap', '--all', '--json'],
        [handoff, pin],
      ],
    ];
    for (const [args, files] of cases) {
      const r = repo.handoff(args);
      const json = JSON.parse(r.stdout);
      const skipped = json.skipped as Array<Record<string, unknown>>;
      expect(skipped.map((p) => p.file).sort(), args.join(' ')).toEqual([...files].sort());
      for (const p of skipped) expect(Object.keys(p)).toEqual(['file', 'line', 'message']);
      for (const file of files) expect(r.stderr, args.join(' ')).toContain(file);
    }
  });

  it('names files by their repository path from any subdirectory, in output and in what it writes', () => {
    const repo = makeRepo();
    repo.write('src/deep/a.ts', 'x\n');
    const cwd = path.join(repo.dir, 'src/deep');
    const first = repo.handoff(['new', 'one'], { cwd });
    expect(first.stdout).toMatch(/^\.handoff\/handoffs\/\d{4}-\d{2}\/\d{2}\/\w{26}\.md\n$/);
    const second = repo.handoff(['new', 'two'], { cwd });
    expect(second.code).toBe(0);
    // The continued handoff's body points to its parent the same way from everywhere.
    expect(repo.read(second.stdout.trim())).toContain(`(\`${first.stdout.trim()}\`)`);
    expect(repo.read(second.stdout.trim())).not.toContain('../');
    expect(repo.handoff(['done'], { cwd }).code).toBe(0);
    expect(repo.read(second.stdout.trim())).toContain('status: "done"');
  });

  it('is what docs/json.md documents for each command', () => {
    const doc = readFileSync(path.resolve(__dirname, '../docs/json.md'), 'utf8');
    for (const command of [
      'list',
      'show',
      'resume',
      'pins',
      'sessions',
      'meter',
      'check',
      'roadmap',
      'hooks status',
      'agent status',
    ]) {
      expect(doc).toContain(`\`handoff ${command}`);
    }
  });
});
