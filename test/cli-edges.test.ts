// Rough edges a new user hits on the command line: help through git, text after `--`,
// and an id of the wrong kind.
import { spawnSync } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/command/spec.js';
import { BIN, gitEnv, makeRepo, tempDir } from './helpers.js';

const MAN = path.resolve(__dirname, '../man');
const hasMan = spawnSync('man', ['--version']).status === 0;

describe('help', () => {
  it('the manual page names every command', () => {
    const page = readFileSync(path.join(MAN, 'man1/git-handoff.1'), 'utf8');
    const named = [...page.matchAll(/^\.B[IR]? ([a-z-]+)/gm)].map((m) => m[1]);
    for (const c of COMMANDS) expect(named).toContain(c.name);
  });

  it.skipIf(!hasMan)('git handoff --help opens the manual page instead of "No manual entry"', () => {
    const repo = makeRepo();
    const bin = tempDir();
    symlinkSync(BIN, path.join(bin, 'git-handoff'));
    const env = {
      ...gitEnv(),
      PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
      MANPATH: MAN,
      MANPAGER: 'cat',
      PAGER: 'cat',
      MANWIDTH: '80',
    };
    const shown = spawnSync('git', ['handoff', '--help'], { cwd: repo.dir, env, encoding: 'utf8' });
    expect(shown.stdout).toMatch(/git-handoff,\s+handoff\s+-\s+keep\s+an\s+AI\s+coding\s+agent/);
    expect(shown.stdout).toMatch(/^\s+resume \[id\]$/m);
  });

  it("a command's help says what it does, and offers only what it reads", () => {
    const dir = tempDir();
    // Help is wrapped to the width of the terminal: compared with its white space folded.
    const help = (args: string[]) => {
      const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, env: gitEnv(), encoding: 'utf8' });
      expect(r.status).toBe(0);
      return r.stdout.replace(/\s+/g, ' ');
    };
    // check closes handoffs whose branch landed: it writes files, which its help must say.
    expect(help(['check', '--help'])).toContain(
      'on the default branch (without --base) it also marks done the handoffs whose branch landed',
    );
    const driver = help(['merge-driver', '--help']);
    expect(driver).toContain('merge a handoff or pin file field by field, and the roadmap');
    expect(driver).toContain('set by handoff init');
    // --version is read only before a command; `handoff pins --version` is an unknown option.
    for (const command of ['check', 'pins', 'merge-driver'])
      expect(help([command, '--help'])).not.toContain('--version');
    expect(help(['--help'])).toContain('-V, --version');
  });
});

describe('messages', () => {
  it('--dry-run with no model configured says so plainly', () => {
    const repo = makeRepo();
    const run = repo.handoff(['new', 'work', '--llm', '--dry-run'], {
      env: { OPENAI_BASE_URL: '', HANDOFF_MODEL: '', OPENAI_API_KEY: '' },
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^handoff: dry run: nothing sent; the request \(\d+ tokens, nothing left out\) would go to the model \(none configured yet\) at the OpenAI API\n$/,
    );
    expect(repo.files('.handoff/handoffs')).toEqual([]);
  });
});

describe('arguments', () => {
  it('an empty --from is a usage error that says it is empty', () => {
    const repo = makeRepo();
    for (const command of ['new', 'meter']) {
      const r = repo.handoff([command, ...(command === 'new' ? ['goal', '--no-edit'] : []), '--from', '']);
      expect(r.code, command).toBe(2);
      expect(r.stderr, command).toBe('handoff: --from is empty; give a transcript file, or auto\n');
    }
  });

  it('text after -- is text: handoff pin -- --help pins the words', () => {
    const repo = makeRepo();
    const pinned = repo.handoff(['pin', '--', '--help']);
    expect(pinned.code).toBe(0);
    expect(pinned.stdout).toMatch(/^Pinned /);
    expect(JSON.parse(repo.handoff(['pins', '--json']).stdout).pins.map((p: { text: string }) => p.text)).toEqual([
      '--help',
    ]);
  });

  it('an id of the other kind is named for what it is', () => {
    const repo = makeRepo();
    const pin = /Pinned (\w+)/.exec(repo.handoff(['pin', 'use tabs']).stdout)![1]!;
    const shown = repo.handoff(['show', pin.slice(0, 10)]);
    expect(shown.code).toBe(1);
    expect(shown.stderr).toBe(
      `handoff: '${pin.slice(0, 10)}' is a pin, not a handoff (handoff pins lists pins; handoff list lists handoffs)\n`,
    );
    const handoff = path.basename(repo.handoff(['new', 'work']).stdout.trim(), '.md');
    const unpinned = repo.handoff(['unpin', handoff]);
    expect(unpinned.code).toBe(1);
    expect(unpinned.stderr).toContain(`'${handoff}' is a handoff, not a pin (handoff show ${handoff} prints it`);
    // A prefix of neither kind keeps the plain answer.
    expect(repo.handoff(['show', 'zzzz']).stderr).toContain("no handoff matches 'zzzz'");
  });
});
