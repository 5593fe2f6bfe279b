// Git hooks never run a program from the work tree: a node_modules/.bin/handoff, or a
// relative PATH entry, is whatever the last checkout or pull request put there.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, gitEnv, makeRepo, tempDir } from './helpers.js';
import { handoffPath, handoffText, id } from './fixtures-items.js';

const noHandoff = (process.env.PATH ?? '')
  .split(path.delimiter)
  .filter((d) => d !== '' && path.isAbsolute(d) && !existsSync(path.join(d, 'handoff')))
  .join(path.delimiter);

function commit(dir: string, PATH: string) {
  const r = spawnSync('git', ['commit', '-q', '-m', 'touch .handoff'], {
    cwd: dir,
    env: gitEnv({ PATH }),
    encoding: 'utf8',
  });
  return { code: r.status ?? -1, stderr: r.stderr };
}

describe('git hooks and the work tree', () => {
  it('a committed hook skips node_modules/.bin/handoff and relative PATH entries, and runs an absolute one outside', () => {
    const repo = makeRepo();
    repo.git('config', 'core.hooksPath', '.githooks');
    mkdirSync(path.join(repo.dir, '.githooks'));
    expect(repo.handoff(['init', '--hooks']).code).toBe(0);
    const planted = path.join(repo.dir, 'node_modules/.bin/handoff');
    repo.write('node_modules/.bin/handoff', '#!/bin/sh\ntouch pwned\n');
    chmodSync(planted, 0o755);
    repo.write(handoffPath(id(1)), handoffText({ id: id(1) }));
    repo.git('add', '-A');
    const refused = commit(repo.dir, `node_modules/.bin${path.delimiter}${noHandoff}`);
    expect(refused.code).toBe(0);
    expect(refused.stderr).toContain('the handoff CLI was not found');
    expect(existsSync(path.join(repo.dir, 'pwned'))).toBe(false);
    // The same program reached through an absolute PATH entry inside the work tree: refused too.
    repo.write(handoffPath(id(2)), handoffText({ id: id(2) }));
    repo.git('add', '-A');
    expect(commit(repo.dir, `${path.dirname(planted)}${path.delimiter}${noHandoff}`).code).toBe(0);
    expect(existsSync(path.join(repo.dir, 'pwned'))).toBe(false);
    // An install outside the work tree, on PATH, is what the hook runs.
    const outside = tempDir();
    writeFileSync(path.join(outside, 'handoff'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
    chmodSync(path.join(outside, 'handoff'), 0o755);
    repo.write(handoffPath(id(3)), handoffText({ id: id(3) }));
    repo.git('add', '-A');
    const ran = commit(repo.dir, `${outside}${path.delimiter}${noHandoff}`);
    expect(ran.code).toBe(0);
    expect(ran.stderr).not.toContain('not found');
    expect(repo.git('show', '--name-only', '--format=', 'HEAD')).toContain('.handoff/ROADMAP.md');
  });
});
