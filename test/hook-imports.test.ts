// The paths git runs on every commit or merge must not load the heavy modules.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, gitEnv, makeRepo, tempDir } from './helpers.js';
import { handoffPath, handoffText, id } from './fixtures-items.js';

// Heavy packages stay outside the bundle (scripts/bundle.js), so loading one shows as its
// node_modules path; our own rarely used modules are lazy chunks named after their file.
const HEAVY = /node_modules\/(yargs|remark[^/]*|simple-git|openai|gpt-tokenizer|js-tiktoken|sql\.js|diff)\/|\/dist\/chunks\/(help|model|new-model|spinner|opencode-db|readers)-/;

/** Runs the CLI with a module-resolution hook that logs every module URL it loads. */
function loaded(cwd: string, args: string[]): { modules: string[]; code: number } {
  const dir = tempDir();
  const log = path.join(dir, 'modules.log');
  const hooks = path.join(dir, 'hooks.mjs');
  writeFileSync(log, '');
  writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r; }\n`);
  const register = path.join(dir, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hooks}`)});\n`);
  const r = spawnSync(process.execPath, ['--import', `file://${register}`, BIN, ...args], { cwd, env: gitEnv(), encoding: 'utf8' });
  return { modules: readFileSync(log, 'utf8').split('\n').filter(Boolean), code: r.status ?? -1 };
}

describe('module loading on the git paths', () => {
  it('pre-commit and refresh load no heavy module; --help does (the probe works)', () => {
    const repo = makeRepo();
    repo.handoff(['init']);
    repo.write(handoffPath(id(1)), handoffText({ id: id(1) }));
    repo.git('add', '-A');
    for (const args of [['git-hook', 'pre-commit'], ['git-hook', 'refresh'], ['roadmap']]) {
      const { modules, code } = loaded(repo.dir, args);
      expect(code).toBe(0);
      expect(modules.some((m) => m.includes(`/dist/chunks/${args[0]}-`))).toBe(true); // the log works
      expect(modules.filter((m) => HEAVY.test(m))).toEqual([]);
      // node:crypto costs milliseconds to load: the bundle loads it on first use only (scripts/bundle.js).
      expect(modules).not.toContain('node:crypto');
    }
    expect(loaded(repo.dir, ['--help']).modules.some((m) => HEAVY.test(m))).toBe(true);
  });
});
