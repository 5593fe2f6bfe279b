// Files that arrive in a pull request from a stranger: each one gets a clear one-line
// error or is skipped with a warning; none runs, hangs, or reaches outside the repository.
import { mkdirSync, readdirSync, symlinkSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir, type Repo } from '../helpers.js';

const ID = '01jx7k2m9q8r4s5t6v7w8x9y0z';
const PIN = '01jx7k2m9q8r4s5t6v7w8x9y1a';

function handoffText(extra = '', files = 'files: []'): string {
  return `---\nid: "${ID}"\ngoal: "ship it"\nstatus: "open"\ncreated: "2026-01-05T10:00:00.000Z"\nauthor: "A <a@example.com>"\nbranch: "main"\nbase: null\nhead: null\nparent: null\n${extra}${files}\n---\n## Goal\n\nship it\n`;
}

function setup(): Repo {
  const repo = makeRepo();
  expect(repo.handoff(['init']).code).toBe(0);
  return repo;
}

/** Runs the read commands over a planted file and checks they neither crash nor run it. */
function expectSkipped(repo: Repo, file: string, problem: RegExp): void {
  for (const args of [['list', '--json'], ['resume'], ...(file.includes('/pins/') ? [['pins']] : [])]) {
    const r = repo.handoff(args);
    expect(r.stderr).not.toContain('internal error');
    expect(r.code === 0 || r.code === 1).toBe(true);
    if (args[0] === 'pins' && !file.includes('/pins/')) continue;
    expect(r.stderr).toMatch(problem);
    expect(r.stderr).toContain(file);
  }
  expect(existsSync(path.join(repo.dir, 'pwned'))).toBe(false);
}

describe('hostile files under .handoff/', () => {
  const H = `.handoff/handoffs/${ID}.md`;

  it('language front-matter (---js, ---javascript) is never run', () => {
    const repo = setup();
    for (const lang of ['js', 'javascript']) {
      repo.write(
        H,
        `---${lang}\nrequire('fs').writeFileSync('pwned', 'x'); module.exports = { id: "${ID}" }\n---\n## Goal\n`,
      );
      expectSkipped(repo, H, /language front-matter is never run/);
    }
  });

  it('custom YAML tags are errors, never code or objects', () => {
    const repo = setup();
    for (const tag of [
      "!!js/function \"function () { require('fs').writeFileSync('pwned', 'x') }\"",
      '!<tag:yaml.org,2002:js/regexp> /x/',
      '!!python/object:os.system ["touch pwned"]',
    ]) {
      repo.write(H, handoffText(`evil: ${tag}\n`));
      expectSkipped(repo, H, /invalid YAML front-matter|could not be read/);
    }
  });

  it('an alias bomb is refused, quickly', () => {
    const repo = setup();
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++) {
      const prev = String.fromCharCode(96 + i);
      const cur = String.fromCharCode(97 + i);
      lines.push(`${cur}: &${cur} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    repo.write(H, handoffText(`${lines.join('\n')}\n`));
    expectSkipped(repo, H, /alias|could not be read|invalid YAML/i);
  });

  it('front-matter over its limit is refused without reading it as YAML; a 50 MB file without reading it at all', () => {
    const repo = setup();
    repo.write(H, handoffText(`junk: "${'A'.repeat(1_000_100)}"\n`));
    const r = repo.handoff(['list']);
    expect(r.stderr).toContain(`${H}: front-matter is`);
    expect(r.stderr).toContain('at most 1000000 are read');
    repo.write(H, handoffText(`junk: "${'A'.repeat(50 * 1024 * 1024)}"\n`));
    expect(repo.handoff(['list']).stderr).toMatch(
      /: is \d+ bytes; expected at most 1048576 \(1 MiB\) for a handoff or pin/,
    );
    const open = repo.handoff(['show', ID]);
    expect(open.code).toBe(1);
    expect(open.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('deeply nested structures are an error, not a stack overflow', () => {
    const repo = setup();
    repo.write(H, handoffText(`deep: ${'['.repeat(50_000)}${']'.repeat(50_000)}\n`));
    expectSkipped(repo, H, /invalid YAML front-matter/);
    repo.write(
      H,
      handoffText(`deep:\n${Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i + 1)}- `).join('\n')}x\n`),
    );
    const r = repo.handoff(['list']);
    expect(r.stderr).not.toContain('internal error');
  });

  it('ids with ../ are refused, in arguments and in files', () => {
    const repo = setup();
    for (const args of [
      ['show', '../../etc/passwd'],
      ['resume', '../x'],
      ['unpin', '../../x'],
    ]) {
      const r = repo.handoff(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/is not a (handoff|pin) id/);
    }
    repo.write(H, handoffText().replace(`id: "${ID}"`, 'id: "../../../etc/x"'));
    expectSkipped(repo, H, /'id' must be a 26-character handoff id/);
    repo.write(`.handoff/pins/${PIN}.md`, `---\nid: "../${PIN}"\ncreated: "2026-01-05T10:00:00.000Z"\n---\nnever\n`);
    const pins = repo.handoff(['pins']);
    expect(pins.stderr).toContain(`.handoff/pins/${PIN}.md: front-matter 'id' must be a 26-character pin id`);
  });

  it('commit fields that look like git options are refused, never passed to git', () => {
    const repo = setup();
    repo.write(H, handoffText().replace('head: null', 'head: "--output=pwned"'));
    expectSkipped(repo, H, /front-matter 'head' must be a commit hash or null/);
    repo.write(H, handoffText().replace('base: null', 'base: "--exec=touch pwned"'));
    expectSkipped(repo, H, /front-matter 'base' must be a commit hash or null/);
    expect(repo.handoff(['new', 'next', '--no-edit']).code).toBe(0);
    expect(existsSync(path.join(repo.dir, 'pwned'))).toBe(false);
  });

  it('a handoff that claims files outside the repository is skipped with a warning', () => {
    const repo = setup();
    for (const bad of ['../../../etc/passwd', '/etc/passwd', 'C:\\\\Windows\\\\win.ini']) {
      repo.write(H, handoffText('', `files:\n  - path: "${bad}"\n    change: "added"\n    state: "committed"`));
      expectSkipped(repo, H, /files\[0\]\.path (is absolute|leaves the repository)/);
    }
    repo.write(
      H,
      handoffText(
        '',
        `files:\n  - path: "a.txt"\n    from: "../../secret"\n    change: "renamed"\n    state: "committed"`,
      ),
    );
    expectSkipped(repo, H, /files\[0\]\.from leaves the repository/);
  });

  it('NUL and control characters: refused in what the user types, read back as written otherwise', () => {
    const repo = setup();
    const nul = repo.handoff(['pin'], { input: 'never\0do this' });
    expect(nul.code).toBe(1);
    expect(nul.stderr).toContain('NUL byte');
    const nulFile = repo.handoff(['new', 'x', '--no-edit', '-F', '-'], { input: 'body\0' });
    expect(nulFile.code).toBe(1);
    expect(repo.files('.handoff/handoffs')).toEqual([]);
    // A file with NUL in its front-matter is not YAML text.
    repo.write(H, handoffText('x: "\0"\n'));
    for (const args of [['list'], ['resume'], ['show', ID], ['done', ID]])
      expect(repo.handoff(args).stderr).not.toContain('internal error');
    // Control characters are kept (escaped in YAML) and read back unchanged.
    const control = 'ring \u0007 escape \u001b[31m bell\u0008';
    const made = repo.handoff(['new', control, '--no-edit']);
    expect(made.code).toBe(0);
    const json = JSON.parse(repo.handoff(['list', '--json']).stdout).handoffs;
    expect(json.find((h: { goal: string }) => h.goal === control)).toBeTruthy();
  });
});

describe('symbolic links out of the repository', () => {
  function outside(): { dir: string; before: () => string[] } {
    const dir = path.join(tempDir(), 'outside');
    mkdirSync(path.join(dir, 'handoffs'), { recursive: true });
    mkdirSync(path.join(dir, 'pins'), { recursive: true });
    writeFileSync(path.join(dir, 'config.yml'), 'default_branch: main\n');
    writeFileSync(
      path.join(dir, 'secret.md'),
      `---\nid: "${PIN}"\ncreated: "2026-01-05T10:00:00.000Z"\n---\nTOP SECRET CONTENT\n`,
    );
    const list = () => readdirSync(dir, { recursive: true }).map(String).sort();
    return { dir, before: list };
  }

  it('.handoff itself linking outside: every command refuses, nothing is written there', () => {
    const repo = makeRepo();
    const out = outside();
    const was = out.before();
    symlinkSync(out.dir, path.join(repo.dir, '.handoff'));
    for (const args of [['init'], ['new', 'g', '--no-edit'], ['pin', 'never'], ['pins'], ['resume'], ['done', ID]]) {
      const r = repo.handoff(args);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^handoff: \.handoff is a symbolic link to .*outside the repository/);
      expect(r.stdout).not.toContain('TOP SECRET');
    }
    expect(out.before()).toEqual(was);
  });

  it('.handoff/handoffs or .handoff/pins linking outside: refused', () => {
    const repo = setup();
    const out = outside();
    const was = out.before();
    rmSync(path.join(repo.dir, '.handoff/handoffs'), { recursive: true, force: true });
    rmSync(path.join(repo.dir, '.handoff/pins'), { recursive: true, force: true });
    symlinkSync(path.join(out.dir, 'handoffs'), path.join(repo.dir, '.handoff/handoffs'));
    symlinkSync(path.join(out.dir, 'pins'), path.join(repo.dir, '.handoff/pins'));
    for (const args of [['new', 'g', '--no-edit'], ['pin', 'never'], ['list'], ['pins']]) {
      const r = repo.handoff(args);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/\.handoff\/(handoffs|pins) is a symbolic link to .*outside the repository/);
    }
    expect(out.before()).toEqual(was);
  });

  it('a symbolic-link file inside .handoff/ is skipped, never read; config.yml as a link is refused', () => {
    const repo = setup();
    const out = outside();
    symlinkSync(path.join(out.dir, 'secret.md'), path.join(repo.dir, `.handoff/pins/${PIN}.md`));
    const pins = repo.handoff(['pins', '--json']);
    expect(pins.stdout).not.toContain('TOP SECRET');
    expect(pins.stderr).toContain(`.handoff/pins/${PIN}.md: is a symbolic link`);
    rmSync(path.join(repo.dir, '.handoff/config.yml'));
    symlinkSync(path.join(out.dir, 'config.yml'), path.join(repo.dir, '.handoff/config.yml'));
    const list = repo.handoff(['list']);
    expect(list.code).toBe(1);
    expect(list.stderr).toContain('.handoff/config.yml: is a symbolic link; expected a regular file');
  });

  it('a directory named like an item (a committed folder or submodule x.md) is skipped with a warning, not a crash', () => {
    const repo = setup();
    repo.handoff(['pin', 'keep the public API stable']);
    for (const dir of ['.handoff/handoffs/folder.md', '.handoff/pins/folder.md']) {
      mkdirSync(path.join(repo.dir, dir, 'inside'), { recursive: true });
      writeFileSync(path.join(repo.dir, dir, 'inside', 'a.txt'), 'x');
    }
    expectSkipped(repo, '.handoff/handoffs/folder.md', /is a directory; expected a regular file/);
    const pins = repo.handoff(['pins']);
    expect(pins.code).toBe(1);
    expect(pins.stdout).toContain('keep the public API stable');
    expect(pins.stderr).toContain('.handoff/pins/folder.md: is a directory; expected a regular file');
    // The pins that can be read still reach the agent, with a warning about the one that cannot.
    const resume = repo.handoff(['resume']);
    expect(resume.code).toBe(0);
    expect(resume.stdout).toContain('keep the public API stable');
    expect(resume.stdout).toContain('.handoff/pins/folder.md: is a directory');
    const check = repo.handoff(['check']);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('.handoff/pins/folder.md: error: is a directory');
  });

  it('a .handoff linking to a directory inside the repository is refused too, and nothing is written behind it', () => {
    // Git keeps the link, not the files behind it: no branch, pull request or pre-commit
    // check would see them (symlink-policy.test.ts has the message).
    const repo = makeRepo();
    mkdirSync(path.join(repo.dir, 'notes'));
    symlinkSync('notes', path.join(repo.dir, '.handoff'));
    expect(repo.handoff(['init']).code).toBe(1);
    expect(repo.handoff(['pin', 'never touch src/auth']).code).toBe(1);
    expect(repo.files('notes')).toEqual([]);
  });
});
