// A pin or handoff that is a symbolic link (to a file outside the repository) is never read:
// `roadmap` leaves it out with a warning and `check` fails naming it.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../helpers.js';
import { pinPath, pinText, id } from '../fixtures-items.js';

describe('linked item files', () => {
  it('roadmap and check refuse a pin that links outside the repository', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    const outside = path.join(tempDir(), 'outside.md');
    writeFileSync(outside, pinText({ id: id(5) }, 'TEXT FROM OUTSIDE THE REPOSITORY\n'));
    symlinkSync(outside, path.join(repo.dir, pinPath(id(5))));
    const roadmap = repo.handoff(['roadmap']);
    expect(roadmap.code).toBe(0);
    expect(roadmap.stderr).toContain(`handoff: warning: skipped ${pinPath(id(5))}: is a symbolic link; expected a regular file`);
    expect(repo.read('.handoff/ROADMAP.md')).not.toContain('TEXT FROM OUTSIDE');
    const check = repo.handoff(['check']);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain(`${pinPath(id(5))}: error: is a symbolic link; expected a regular file (a link could point outside the repository)`);
    expect(check.stdout + check.stderr).not.toContain('TEXT FROM OUTSIDE');
  });

  it('the roadmap is never read or written through a link, as a file or as a folder a committed config names', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    expect(repo.handoff(['pin', 'never touch src/auth']).code).toBe(0);
    const outside = tempDir();
    const secret = path.join(outside, 'notes.md');
    writeFileSync(secret, 'TEXT FROM OUTSIDE THE REPOSITORY\n');
    symlinkSync(secret, path.join(repo.dir, '.handoff/ROADMAP.md'));
    const refused = "handoff: .handoff/ROADMAP.md is a symbolic link; it is never read or written through a link (it could lead outside the repository): delete it and run 'handoff roadmap'\n";
    for (const args of [['roadmap'], ['roadmap', '--check'], ['roadmap', '--check', '--json'], ['check'], ['check', '--json']]) {
      const r = repo.handoff(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toBe(refused);
      expect(r.stdout, args.join(' ')).not.toContain('TEXT FROM OUTSIDE');
    }
    expect(readFileSync(secret, 'utf8')).toBe('TEXT FROM OUTSIDE THE REPOSITORY\n');

    // A committed config.yml moves the roadmap under a committed link to a folder elsewhere.
    repo.write('.handoff/config.yml', 'roadmap: notes/ROADMAP.md\n');
    const elsewhere = path.join(outside, 'dir');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, path.join(repo.dir, 'notes'));
    for (const args of [['roadmap'], ['check']]) {
      const r = repo.handoff(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toContain('handoff: notes (in the path of notes/ROADMAP.md) is a symbolic link to ');
      expect(r.stderr, args.join(' ')).toContain(', outside the repository; refusing to read or write there (replace it with a directory)');
    }
    expect(existsSync(path.join(elsewhere, 'ROADMAP.md'))).toBe(false);
  });
});
