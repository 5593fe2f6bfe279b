// Git's output reaches us through scratch files in the OS temp directory, and through
// pipes where that directory refuses (git/git-plumbing.ts): both must give the same
// answers, large ones included, say git's own error, and leave no file behind.
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, gitEnv, makeRepo, tempDir } from './helpers.js';

/** Our scratch files in a temp directory (node keeps its compile cache there too). */
const ours = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('handoff-'));

/** A temp directory that cannot exist: it would be inside a file. */
function refusing(): string {
  const file = path.join(tempDir(), 'a file');
  writeFileSync(file, '');
  return path.join(file, 'tmp');
}

describe("git's output in scratch files", () => {
  it('resume reads the same through files as through pipes, past a pipe buffer, and leaves no file behind', () => {
    const repo = makeRepo();
    repo.handoff(['init']);
    const many = Object.fromEntries(
      Array.from({ length: 1500 }, (_, i) => [`src/a-module-with-a-rather-long-name-${i}.ts`, 'one\n']),
    );
    repo.commit('many files', many);
    repo.write('notes.md', 'what is left\n');
    expect(repo.handoff(['new', 'carry on', '--no-edit']).code).toBe(0);
    repo.commit('the handoff', {});
    // Every file differs from the handoff's commit: git's answer is about 70 KB.
    for (const file of Object.keys(many)) repo.write(file, 'two\n');
    const scratch = tempDir();
    const resume = (tmp: string) => {
      // Without the cache, each run asks git the same questions.
      rmSync(path.join(repo.dir, '.git/handoff-cache.json'), { force: true });
      return repo.handoff(['resume'], { env: { TMPDIR: tmp, TMP: tmp, TEMP: tmp } });
    };
    const viaFiles = resume(scratch);
    expect(viaFiles.code).toBe(0);
    expect(viaFiles.stdout).toContain('`src/a-module-with-a-rather-long-name-1499.ts`');
    expect(viaFiles.stdout).toContain('Uncommitted when it was written, committed since: `notes.md`');
    expect(ours(scratch)).toEqual([]);
    const viaPipes = resume(refusing());
    expect(viaPipes).toEqual(viaFiles);
  });

  // A full temp directory makes git fail to write its answer; a file size limit does the
  // same (git is killed by SIGXFSZ) and can be set without privileges.
  it.skipIf(process.platform === 'win32')(
    'a temp directory that cannot take the output: git is asked again through pipes, and the answer is the same',
    () => {
      const repo = makeRepo();
      repo.handoff(['init']);
      repo.commit('code', { 'src/app.ts': 'one\n' });
      repo.write('src/app.ts', 'two\n');
      repo.write('notes.md', 'what is left\n');
      expect(repo.handoff(['new', 'carry on', '--no-edit']).code).toBe(0);
      repo.commit('the handoff', {});
      repo.write('src/more.ts', 'three\n');
      repo.git('add', 'src/more.ts');
      const resume = (limited: boolean) => {
        rmSync(path.join(repo.dir, '.git/handoff-cache.json'), { force: true });
        const command = limited ? ['sh', '-c', 'ulimit -f 0 && exec "$0" "$@"', process.execPath] : [process.execPath];
        const r = spawnSync(command[0]!, [...command.slice(1), BIN, 'resume'], {
          cwd: repo.dir,
          env: gitEnv(),
          encoding: 'utf8',
        });
        return { code: r.status, stdout: r.stdout, stderr: r.stderr };
      };
      const normal = resume(false);
      expect(normal.code).toBe(0);
      expect(normal.stdout).toContain('- Files changed since then: `src/more.ts`');
      expect(resume(true)).toEqual(normal);
    },
  );

  it("git's error reaches the user through either", () => {
    const repo = makeRepo();
    repo.handoff(['init']);
    repo.git('config', 'core.bigFileThreshold', 'not-a-number');
    const scratch = tempDir();
    for (const tmp of [scratch, refusing()]) {
      const r = repo.handoff(['new', 'a goal', '--no-edit'], { env: { TMPDIR: tmp, TMP: tmp, TEMP: tmp } });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^handoff: git [\w-]+ failed: fatal: bad numeric config value 'not-a-number' for 'core.bigfilethreshold'/m,
      );
    }
    expect(ours(scratch)).toEqual([]);
  });
});
