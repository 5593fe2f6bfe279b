// `handoff edit`: the file in the user's editor, written only when it still reads as a handoff.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from './helpers.js';

/** An editor that runs a shell line on the file git would hand it ($1). */
function editor(line: string): string {
  const file = path.join(tempDir(), 'editor.sh');
  writeFileSync(file, `#!/bin/sh\n${line}\n`, { mode: 0o755 });
  return file;
}

describe('handoff edit', () => {
  it('saves what the editor wrote, and refuses a file that no longer reads, writing nothing', () => {
    const repo = makeRepo();
    repo.write('a.txt', 'a\n');
    const file = repo.handoff(['new', 'ship the app']).stdout.trim();
    const id = path.basename(file, '.md');
    const before = repo.read(file);

    const ok = repo.handoff(['edit'], {
      env: { GIT_EDITOR: editor(`sed -i 's/^goal: "ship the app"$/goal: "ship the app today"/' "$1"`) },
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toBe(`Edited ${file}\n`);
    expect(repo.read(file)).toBe(before.replace('goal: "ship the app"', 'goal: "ship the app today"'));
    expect(JSON.parse(repo.handoff(['show', id, '--json']).stdout).goal).toBe('ship the app today');

    const edited = repo.read(file);
    const broken = repo.handoff(['edit', id.slice(0, 10)], {
      env: { GIT_EDITOR: editor(`sed -i 's/^status: .*$/status: "finished"/' "$1"`) },
    });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(new RegExp(`^handoff: ${file.replace(/\./g, '\\.')}: front-matter 'status' must be`));
    expect(repo.read(file)).toBe(edited);

    const renamed = repo.handoff(['edit', id], {
      env: { GIT_EDITOR: editor(`sed -i 's/^id: .*$/id: "01m8000000000000000000000a"/' "$1"`) },
    });
    expect(renamed.code).toBe(1);
    expect(renamed.stderr).toContain('the id is the file');
    expect(readFileSync(path.join(repo.dir, file), 'utf8')).toBe(edited);

    const same = repo.handoff(['edit', id], { env: { GIT_EDITOR: 'true' } });
    expect(same.stdout).toBe(`${file} is unchanged; nothing written.\n`);
  });

  it('redacts a secret typed in the editor', () => {
    const repo = makeRepo();
    repo.write('a.txt', 'a\n');
    const file = repo.handoff(['new', 'ship']).stdout.trim();
    const key = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
    const r = repo.handoff(['edit'], { env: { GIT_EDITOR: editor(`printf '\\nthe token is ${key}\\n' >> "$1"`) } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('redacted 1 secret');
    expect(repo.read(file)).not.toContain(key);
  });

  it('says when there is nothing to edit', () => {
    const repo = makeRepo();
    const r = repo.handoff(['edit']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("handoff: no open handoff on branch 'main'; name one: handoff edit <id>\n");
  });
});
