// The paths git runs on every commit or merge must not load the heavy modules.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, countNodeStarts, gitEnv, makeRepo, tempDir } from './helpers.js';
import { handoffPath, handoffText, id, pinPath, pinText } from './fixtures-items.js';

// Heavy packages stay outside the bundle (scripts/bundle.js), so loading one shows as its
// node_modules path; our own rarely used modules are lazy chunks named after their file.
const HEAVY =
  /node_modules\/(yargs|remark[^/]*|simple-git|openai|gpt-tokenizer|js-tiktoken|sql\.js|diff)\/|\/dist\/chunks\/(help|model|new-model|spinner|opencode-db|readers)-/;

/**
 * Runs the CLI with a module-resolution hook that logs every module URL it loads, and
 * node's own list of the built-in modules it loaded by the end ("NativeModule crypto"),
 * however they were loaded.
 */
function loaded(
  cwd: string,
  args: string[],
  input = '',
): { modules: string[]; builtins: string[]; code: number; stdout: string } {
  const dir = tempDir();
  const log = path.join(dir, 'modules.log');
  const builtins = path.join(dir, 'builtins.log');
  const hooks = path.join(dir, 'hooks.mjs');
  writeFileSync(log, '');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r; }\n`,
  );
  const register = path.join(dir, 'register.mjs');
  writeFileSync(
    register,
    // Taken from node, not imported: an import of node:fs loads what the probe looks for.
    `const { register } = process.getBuiltinModule('node:module');\nconst { writeFileSync } = process.getBuiltinModule('node:fs');\nregister(${JSON.stringify(`file://${hooks}`)});\n` +
      `process.on('exit', () => writeFileSync(${JSON.stringify(builtins)}, process.moduleLoadList.join('\\n')));\n`,
  );
  const r = spawnSync(process.execPath, ['--import', `file://${register}`, BIN, ...args], {
    cwd,
    env: gitEnv(),
    encoding: 'utf8',
    input,
  });
  return {
    modules: readFileSync(log, 'utf8').split('\n').filter(Boolean),
    builtins: readFileSync(builtins, 'utf8').split('\n'),
    code: r.status ?? -1,
    stdout: r.stdout,
  };
}

/** The bundle's chunk whose source includes `marker` (one chunk holds each bundled package). */
function chunkWith(marker: string): string {
  const chunks = path.join(path.dirname(BIN), '../dist/chunks');
  const found = readdirSync(chunks).filter((f) => readFileSync(path.join(chunks, f), 'utf8').includes(marker));
  expect(found).toHaveLength(1);
  return `/dist/chunks/${found[0]}`;
}
const CRYPTO = 'NativeModule crypto';
/** Loaded by the ES module of node:fs (its ReadStream getters), which an `import` from node:fs builds. */
const FS_STREAMS = 'NativeModule internal/fs/streams';
/** The chunk every session start and commit loads (scripts/hot-path.js): that the log lists it shows the log works. */
const hot = () => chunkWith('async function buildResume(');

describe('module loading on the git paths', () => {
  it('pre-commit and refresh load no heavy module; --help does (the probe works)', () => {
    const repo = makeRepo();
    repo.handoff(['init']);
    repo.write(handoffPath(id(1)), handoffText({ id: id(1) }));
    repo.git('add', '-A');
    for (const args of [['git-hook', 'pre-commit'], ['git-hook', 'refresh'], ['roadmap']]) {
      const { modules, builtins, code } = loaded(repo.dir, args);
      expect(code).toBe(0);
      // the log works: roadmap's own chunk, or the hot one (git-hook is in it)
      expect(
        modules.some((m) => (args[0] === 'roadmap' ? m.includes('/dist/chunks/roadmap-') : m.endsWith(hot()))),
      ).toBe(true);
      expect(modules.filter((m) => HEAVY.test(m))).toEqual([]);
      // node:crypto is loaded on first use only (scripts/bundle.js). pre-commit uses it: it
      // hashes config.yml to record the tree it validated; so does any run that parses a file
      // too new for its stat data to vouch for it (the cache keys it by its blob id), as these
      // may be: what is loaded then is asserted below.
      expect(builtins.length).toBeGreaterThan(0);
    }
    // Once the files' stat data vouch for them, and the cache holds them by it, a hook that
    // renders hashes nothing.
    const file = path.join(repo.dir, handoffPath(id(1)));
    while (Date.now() - statSync(file).ctimeMs <= 2500)
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    repo.handoff(['roadmap']);
    for (const args of [['git-hook', 'refresh'], ['roadmap']])
      expect(loaded(repo.dir, args).builtins, args.join(' ')).not.toContain(CRYPTO);
    expect(loaded(repo.dir, ['--help']).modules.some((m) => HEAVY.test(m))).toBe(true);
    // The probe sees node:crypto however it is loaded: `new` makes an id with it.
    expect(loaded(repo.dir, ['new', 'a goal', '--no-edit']).builtins).toContain(CRYPTO);
  });

  it('resume and the session-start hook read handoffs and pins from the cache without loading yaml', () => {
    // yaml is bundled (scripts/bundle.js): the chunk that holds it is the one that defines its parse error.
    const yaml = chunkWith('YAMLParseError = class extends YAMLError');
    const loadsYaml = (modules: string[]) => modules.some((m) => m.endsWith(yaml));
    const repo = makeRepo();
    repo.handoff(['init']);
    repo.handoff(['pin', 'never touch the auth module']);
    repo.handoff(['new', 'first', '--no-edit']);
    repo.handoff(['new', 'second', '--no-edit']);
    const start = JSON.stringify({
      session_id: 's',
      cwd: repo.dir,
      hook_event_name: 'SessionStart',
      source: 'startup',
    });
    for (const [args, input] of [
      [['resume'], ''],
      [['hook', 'claude-session-start'], start],
    ] as const) {
      const { modules, builtins, code } = loaded(repo.dir, [...args], input);
      expect(code).toBe(0);
      expect(modules.some((m) => m.endsWith(hot()))).toBe(true); // the log works
      expect(loadsYaml(modules)).toBe(false);
      // node:fs taken with process.getBuiltinModule, never imported (store/fs.ts says why).
      expect(builtins).not.toContain(FS_STREAMS);
      // stdin is a pipe: told from a terminal by its stat data, without node:tty and node's streams.
      expect(builtins).not.toContain('NativeModule tty');
    }
    // Without the open index the files are parsed: in the form the tool writes them, without
    // yaml (store/plain-front-matter.ts); a pin a person edited (a comment) with it, as the probe sees.
    rmSync(path.join(repo.dir, '.git/handoff-open.json'));
    expect(loadsYaml(loaded(repo.dir, ['resume']).modules)).toBe(false);
    const pins = path.join(repo.dir, '.handoff/pins');
    const pin = path.join(pins, readdirSync(pins)[0]!);
    writeFileSync(pin, readFileSync(pin, 'utf8').replace('\nstatus:', '\n# kept by hand\nstatus:'));
    rmSync(path.join(repo.dir, '.git/handoff-open.json'));
    expect(loadsYaml(loaded(repo.dir, ['resume']).modules)).toBe(true);
  });

  it('a session start in an unchanged repository neither loads the secret patterns nor hashes with node:crypto', () => {
    const patterns = chunkWith('function redactSecrets(');
    const repo = makeRepo();
    repo.handoff(['init']);
    repo.handoff(['pin', 'never touch the auth module']);
    repo.handoff(['new', 'first', '--no-edit']);
    const start = JSON.stringify({
      session_id: 's',
      cwd: repo.dir,
      hook_event_name: 'SessionStart',
      source: 'startup',
    });
    const first = loaded(repo.dir, ['resume']);
    expect(first.modules.some((m) => m.endsWith(patterns))).toBe(true); // a prompt never seen is redacted
    for (const [args, input] of [
      [['resume'], ''],
      [['hook', 'claude-session-start'], start],
    ] as const) {
      const again = loaded(repo.dir, [...args], input);
      expect(again.code).toBe(0);
      expect(again.modules.some((m) => m.endsWith(patterns))).toBe(false);
      expect(again.builtins).not.toContain(CRYPTO);
    }
    expect(loaded(repo.dir, ['resume']).stdout).toBe(first.stdout);
    // A new commit changes the prompt: the patterns run again, over the new strings only;
    // the ones seen clean before (the pin, the goal) stay remembered.
    repo.commit('more work', { 'src/more.ts': 'export const more = 1;\n' });
    expect(loaded(repo.dir, ['resume']).modules.some((m) => m.endsWith(patterns))).toBe(true);
    const clean = (
      JSON.parse(readFileSync(path.join(repo.dir, '.git/handoff-clean.json'), 'utf8')) as { clean: string[] }
    ).clean;
    expect(clean).toContain('never touch the auth module');
    expect(clean).toContain('first');
    // Neither prompt whole, the one after the commit nor the one before: by their digests (the
    // resume snapshot holds the last one whole).
    expect(clean.filter((t) => t.includes('## Since the handoff'))).toEqual([]);
    expect(
      (JSON.parse(readFileSync(path.join(repo.dir, '.git/handoff-clean.json'), 'utf8')) as { long: string[] }).long
        .length,
    ).toBeGreaterThanOrEqual(2);
    expect(loaded(repo.dir, ['resume']).modules.some((m) => m.endsWith(patterns))).toBe(false);
    // Another install beside this one (another version) throws this one's cache away, and
    // this one throws away its cache; the clean strings, kept apart, outlive both.
    writeFileSync(path.join(repo.dir, '.git/handoff-cache.json'), JSON.stringify({ format: 0, version: 'other' }));
    const after = loaded(repo.dir, ['resume']);
    expect(after.modules.some((m) => m.endsWith(patterns))).toBe(false);
    expect(after.stdout).toBe(loaded(repo.dir, ['resume']).stdout);
    // Other rules (a file another build of the rules wrote) remember nothing. The prompt this
    // build remembered (resume/snapshot.ts, kept under the tool's build) is set aside too:
    // read back, it would leave no string to redact.
    rmSync(path.join(repo.dir, '.git/handoff-resume.json'));
    const cleanFile = path.join(repo.dir, '.git/handoff-clean.json');
    writeFileSync(cleanFile, readFileSync(cleanFile, 'utf8').replace(/"rules":"[^"]*"/, '"rules":"other"'));
    expect(loaded(repo.dir, ['resume']).modules.some((m) => m.endsWith(patterns))).toBe(true);
    expect(loaded(repo.dir, ['resume']).modules.some((m) => m.endsWith(patterns))).toBe(false);
  });

  it('a session start right after a commit that ran the pre-commit hook has nothing new to redact', () => {
    const patterns = chunkWith('function redactSecrets(');
    const loadsPatterns = (modules: string[]) => modules.some((m) => m.endsWith(patterns));
    const repo = makeRepo();
    expect(repo.handoff(['init', '--hooks']).code).toBe(0);
    repo.handoff(['pin', 'never touch the auth module']);
    const file = repo.handoff(['new', 'ship the parser', '--no-edit']).stdout.trim();
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'handoff');
    repo.handoff(['resume']);
    const starts = countNodeStarts(repo);
    const edit = (line: string) =>
      repo.write(file, repo.read(file).replace('## Next steps\n', `## Next steps\n\n- ${line}\n`));
    // Committed from the index (add, then commit) and with -a (git hands the hook another index).
    for (const [line, commit] of [
      ['write the benchmark', () => (repo.git('add', '--', file), repo.git('commit', '-q', '-m', 'next step'))],
      ['profile the hook', () => repo.git('commit', '-q', '-a', '-m', 'another step')],
    ] as const) {
      edit(line);
      const before = starts();
      commit();
      expect(starts()).toBe(before + 1); // the hook ran node
      const after = loaded(repo.dir, ['resume']);
      expect(after.code).toBe(0);
      expect(after.stdout).toContain(line);
      expect(loadsPatterns(after.modules)).toBe(false);
      // The same prompt as one made afresh, which redacts it (the probe sees the patterns).
      for (const name of ['handoff-resume.json', 'handoff-clean.json']) rmSync(path.join(repo.dir, '.git', name));
      const fresh = loaded(repo.dir, ['resume']);
      expect(loadsPatterns(fresh.modules)).toBe(true);
      expect(fresh.stdout).toBe(after.stdout);
    }
    // A commit with work in it changes what git says happened since: the prompt the hook made
    // is not the one asked for, and the session start makes its own, the work in it.
    edit('review the parser');
    repo.write('src/parser.ts', 'export const parse = 1;\n');
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'work and a step');
    const worked = loaded(repo.dir, ['resume']);
    expect(worked.stdout).toContain('review the parser');
    expect(worked.stdout).toContain('`src/parser.ts`');
    expect(loadsPatterns(worked.modules)).toBe(true);
    // A secret committed in the handoff is not remembered: the session start redacts it.
    const token = 'gh' + 'p_' + 'Qa1Ws2Ed3Rf4Tg5Yh6Uj7Ik8Ol9Pa0SdFgHjKl';
    edit(`push with ${token}`);
    repo.git('commit', '-q', '-a', '-m', 'a secret');
    const secret = loaded(repo.dir, ['resume']);
    expect(loadsPatterns(secret.modules)).toBe(true);
    expect(secret.stdout).toContain('[REDACTED:github-pat]');
    expect(secret.stdout).not.toContain(token.slice(-12));
  });

  it('remembers every string of a prompt with many pins, and the list of paths as one entry', () => {
    const patterns = chunkWith('function redactSecrets(');
    const repo = makeRepo();
    repo.handoff(['init']);
    // More strings than the 64 once kept: a prompt's own strings were then cut off, and
    // every session start redacted some of them again.
    const pins = Object.fromEntries(
      Array.from({ length: 80 }, (_, i) => [pinPath(id(i + 1)), pinText({ id: id(i + 1) }, `rule ${i + 1}: keep it`)]),
    );
    repo.commit('pins', pins);
    repo.handoff(['new', 'first', '--no-edit']);
    const paths = Array.from({ length: 300 }, (_, i) => `src/f${i}.ts`);
    repo.commit('many files', Object.fromEntries(paths.map((p) => [p, 'export {};\n'])));
    const first = loaded(repo.dir, ['resume']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('rule 80: keep it');
    expect(first.stdout).toContain('and 280 more'); // the first 20 paths are named
    expect(first.modules.some((m) => m.endsWith(patterns))).toBe(true);
    const again = loaded(repo.dir, ['resume']);
    expect(again.modules.some((m) => m.endsWith(patterns))).toBe(false);
    expect(again.stdout).toBe(first.stdout);
    const kept = JSON.parse(readFileSync(path.join(repo.dir, '.git/handoff-clean.json'), 'utf8')) as {
      clean: string[];
      lists: string[];
    };
    for (let i = 1; i <= 80; i++) expect(kept.clean).toContain(`rule ${i}: keep it`);
    // The changed paths named: one entry, not one string each.
    expect(kept.clean.filter((t) => /^src\/f\d+\.ts$/.test(t))).toEqual([]);
    expect(kept.lists.filter((l) => l.includes('src/f0.ts'))).toHaveLength(1);
  });
});
