// The paths git runs on every commit or merge must not load the heavy modules.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, gitEnv, makeRepo, tempDir } from './helpers.js';
import { handoffPath, handoffText, id } from './fixtures-items.js';

// Heavy packages stay outside the bundle (scripts/bundle.js), so loading one shows as its
// node_modules path; our own rarely used modules are lazy chunks named after their file.
const HEAVY = /node_modules\/(yargs|remark[^/]*|simple-git|openai|gpt-tokenizer|js-tiktoken|sql\.js|diff)\/|\/dist\/chunks\/(help|model|new-model|spinner|opencode-db|readers)-/;

/** Runs the CLI with a module-resolution hook that logs every module URL it loads. */
function loaded(cwd: string, args: string[], input = ''): { modules: string[]; code: number } {
  const dir = tempDir();
  const log = path.join(dir, 'modules.log');
  const hooks = path.join(dir, 'hooks.mjs');
  writeFileSync(log, '');
  writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r; }\n`);
  const register = path.join(dir, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hooks}`)});\n`);
  const r = spawnSync(process.execPath, ['--import', `file://${register}`, BIN, ...args], { cwd, env: gitEnv(), encoding: 'utf8', input });
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

  it('resume and the session-start hook read handoffs and pins from the cache without loading yaml', () => {
    // yaml is bundled (scripts/bundle.js): the chunk that holds it is the one that defines its parse error.
    const chunks = path.join(path.dirname(BIN), '../dist/chunks');
    const yaml = readdirSync(chunks).filter((f) => readFileSync(path.join(chunks, f), 'utf8').includes('YAMLParseError = class extends YAMLError'));
    expect(yaml).toHaveLength(1);
    const loadsYaml = (modules: string[]) => modules.some((m) => m.endsWith(`/dist/chunks/${yaml[0]}`));
    const repo = makeRepo();
    repo.handoff(['init']);
    repo.handoff(['pin', 'never touch the auth module']);
    repo.handoff(['new', 'first', '--no-edit']);
    repo.handoff(['new', 'second', '--no-edit']);
    const start = JSON.stringify({ session_id: 's', cwd: repo.dir, hook_event_name: 'SessionStart', source: 'startup' });
    for (const [args, input, chunk] of [[['resume'], '', 'resume'], [['hook', 'claude-session-start'], start, 'agent-hook']] as const) {
      const { modules, code } = loaded(repo.dir, [...args], input);
      expect(code).toBe(0);
      expect(modules.some((m) => m.includes(`/dist/chunks/${chunk}-`))).toBe(true); // the log works
      expect(loadsYaml(modules)).toBe(false);
    }
    // Without the cache the files are parsed, with yaml (the probe sees it).
    rmSync(path.join(repo.dir, '.git/handoff-cache.json'));
    expect(loadsYaml(loaded(repo.dir, ['resume']).modules)).toBe(true);
  });
});
