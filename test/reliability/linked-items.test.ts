// A pin or handoff that is a symbolic link (to a file outside the repository) is never read:
// `roadmap` leaves it out with a warning and `check` fails naming it.
import { symlinkSync, writeFileSync } from 'node:fs';
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
});
