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
    expect(broken.stderr).toMatch(/^handoff: the edited handoff: front-matter 'status' must be/);
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

  it('keeps what was typed when it cannot be saved, and says where, leaving the file as it was', () => {
    const repo = makeRepo();
    repo.write('a.txt', 'a\n');
    const file = repo.handoff(['new', 'ship the app']).stdout.trim();
    const before = repo.read(file);
    const kept = '.git/HANDOFF_EDITMSG.md';

    const note = `printf '\\n- My long careful note\\n' >> "$1"`;
    const broken = repo.handoff(['edit'], {
      env: { GIT_EDITOR: editor(`${note}\nsed -i 's/^status: .*/status: [open/' "$1"`) },
    });
    expect(broken.code).toBe(1);
    // The line is the kept text's, not the repository file's, which is unchanged.
    expect(broken.stderr).toMatch(
      /^handoff: the edited handoff: invalid YAML front-matter at line 5: [^\n]*; nothing written, your text is kept in \.git\/HANDOFF_EDITMSG\.md\n$/,
    );
    expect(repo.read(file)).toBe(before);
    expect(repo.read(kept)).toBe(`${before.replace(/^status: .*$/m, 'status: [open')}\n- My long careful note\n`);

    // Changed by someone else while in the editor: the edit is refused, and kept too.
    const meanwhile = repo.handoff(['edit'], {
      env: { GIT_EDITOR: editor(`${note}\nprintf '\\n- theirs\\n' >> '${path.join(repo.dir, file)}'`) },
    });
    expect(meanwhile.code).toBe(1);
    expect(meanwhile.stderr).toBe(
      `handoff: ${file} changed while it was in the editor; nothing written, your text is kept in ${kept}\n`,
    );
    expect(repo.read(file)).toBe(`${before}\n- theirs\n`);
    expect(repo.read(kept)).toBe(`${before}\n- My long careful note\n`);

    const emptied = repo.handoff(['edit'], { env: { GIT_EDITOR: 'truncate -s0' } });
    expect(emptied.code).toBe(1);
    expect(emptied.stderr).toBe('handoff: aborting: the handoff was emptied in the editor; nothing written\n');
    expect(repo.read(file)).toBe(`${before}\n- theirs\n`);
  });

  it('keeps the body typed for handoff new when the handoff cannot be written', () => {
    const repo = makeRepo();
    repo.write('a.txt', 'a\n');
    const r = repo.handoff(['new', 'ship', '--edit'], {
      env: { GIT_EDITOR: editor(`printf '\\n- My long careful note\\000\\n' >> "$1"`) },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'handoff: the handoff body contains a NUL byte; expected text (git would treat the file as binary); nothing written, your text is kept in .git/HANDOFF_EDITMSG.md\n',
    );
    expect(repo.files('.handoff/handoffs')).toEqual([]);
    // The body as typed, without the instructions the editor showed above it.
    const body = repo.read('.git/HANDOFF_EDITMSG.md');
    expect(body).toMatch(/^## Goal\n\nship\n/);
    expect(body.endsWith('\n- My long careful note\0\n')).toBe(true);
  });

  it('names the signal that killed the editor', () => {
    const repo = makeRepo();
    repo.write('a.txt', 'a\n');
    const killer = 'kill -TERM $$; :';
    const r = repo.handoff(['new', 'ship', '--edit'], { env: { GIT_EDITOR: killer } });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`handoff: the editor '${killer}' was killed by SIGTERM; nothing written\n`);
    expect(repo.files('.handoff/handoffs')).toEqual([]);
    const file = repo.handoff(['new', 'ship']).stdout.trim();
    const before = repo.read(file);
    const e = repo.handoff(['edit'], { env: { GIT_EDITOR: killer } });
    expect(e.code).toBe(1);
    expect(e.stderr).toBe(`handoff: the editor '${killer}' was killed by SIGTERM; nothing written\n`);
    expect(repo.read(file)).toBe(before);
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
