// What `npm pack` ships: the built program, its templates, docs and license; no tests,
// fixtures, sources, source maps or .handoff/ records. Every relative import and every
// template the built code names must be in the package.
// Then the package as users get it: the tarball installed by the GitHub Action's own steps
// (action.yml, run as the runner would, in a temporary repository, its runtime dependencies
// from a registry on 127.0.0.1 that serves this checkout's installed ones, with an empty
// npm cache of its own), its size with those dependencies, and the check it runs on a pull
// request.
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { handoffPath, handoffText, id, pinPath, pinText } from './fixtures-items.js';
import { gitEnv, makeRepo, runAsync, tempDir } from './helpers.js';
import { startRegistry } from './npm-registry.js';

const ROOT = path.resolve(__dirname, '..');

function packed(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path).sort();
}

describe('npm pack', () => {
  it('ships dist, bin, templates, docs, README and LICENSE, and nothing of the development tree', () => {
    const files = packed();
    for (const must of [
      'LICENSE',
      'README.md',
      'package.json',
      'bin/handoff.js',
      'dist/cli/cli.js',
      'man/man1/git-handoff.1',
    ])
      expect(files).toContain(must);
    for (const name of readdirSync(path.join(ROOT, 'templates'))) expect(files).toContain(`templates/${name}`);
    const stray = files.filter(
      (f) =>
        /^(test|bench|src|scripts|\.handoff|\.ci|node_modules)\//.test(f) ||
        f.endsWith('.map') ||
        (f.endsWith('.ts') && !f.startsWith('templates/')) ||
        /fixtures|\.test\.|(^|\/)\.env|\.(pem|key)$/i.test(f),
    );
    expect(stray).toEqual([]);

    const shipped = new Set(files);
    const missing: string[] = [];
    let checked = 0;
    for (const file of files.filter((f) => f.endsWith('.js') && f.startsWith('dist/'))) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/(?:from\s*|import\()\s*["'](\.{1,2}\/[^"']+)["']/g)) {
        checked += 1;
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]!));
        if (!shipped.has(target)) missing.push(`${file} -> ${m[1]}`);
      }
      for (const m of text.matchAll(/readTemplate\(["']([^"']+)["']\)/g))
        if (!shipped.has(`templates/${m[1]}`)) missing.push(`${file} -> templates/${m[1]}`);
      // A page a message points to exists.
      for (const m of text.matchAll(/\bdocs\/[a-z-]+\.md\b/g))
        if (!shipped.has(m[0])) missing.push(`${file} -> ${m[0]}`);
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(100); // the import scan saw the program's imports
  });
});

/** The installed size the package must stay within, its runtime dependencies included. */
const MAX_INSTALLED_BYTES = 15 * 1024 * 1024;

/** Bytes of every file under dir (apparent sizes, as a download and an unpack see them). */
function bytesUnder(dir: string): number {
  let sum = 0;
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    const st = lstatSync(file);
    sum += st.isDirectory() ? bytesUnder(file) : st.size;
  }
  return sum;
}

interface Step {
  name: string;
  if?: string;
  env?: Record<string, string>;
  run: string;
}

/**
 * The part of GitHub's expression language action.yml uses: `a || b` (first non-empty),
 * `a && b`, `x == 'y'`, `always()`, and context paths. An expression this does not know
 * fails the test, so a change to action.yml is run here too, not guessed at.
 */
function evaluate(expression: string, context: Record<string, unknown>): string | boolean {
  const term = (t: string): string | boolean => {
    t = t.trim();
    if (t === 'always()') return true;
    const eq = /^(.+?)\s*==\s*'([^']*)'$/.exec(t);
    if (eq) return term(eq[1]!) === eq[2];
    if (!/^[a-z_]+(\.[a-z_]+)*$/.test(t)) throw new Error(`action.yml: expression not understood here: ${t}`);
    let v: unknown = context;
    for (const k of t.split('.')) v = (v as Record<string, unknown> | undefined)?.[k];
    return v === undefined || v === null ? '' : (v as string);
  };
  if (expression.includes('&&')) return expression.split('&&').every((t) => Boolean(term(t)));
  for (const t of expression.split('||')) {
    const v = term(t);
    if (v) return v;
  }
  return '';
}

const substitute = (text: string, context: Record<string, unknown>) =>
  text.replace(/\$\{\{(.*?)\}\}/g, (_, e: string) => String(evaluate(e, context)));

/**
 * Runs action.yml's steps as the runner does, in repo, with these inputs. npm asks `registry`
 * (a loopback one) with a cache of its own, or, without one, works offline from that empty cache.
 */
async function runAction(
  cwd: string,
  runnerTemp: string,
  inputs: Record<string, string>,
  actionPath = ROOT,
  steps?: string[],
  registry?: string,
) {
  const action = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default: string }>;
    runs: { using: string; steps: Step[] };
  };
  expect(action.runs.using).toBe('composite');
  const context = {
    inputs: { ...Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default])), ...inputs },
    github: { event: { pull_request: { base: { sha: '' }, number: '' } }, token: 'not-a-token' },
  };
  const files = { summary: path.join(runnerTemp, 'step-summary.md'), output: path.join(runnerTemp, 'output.txt') };
  writeFileSync(files.summary, '');
  writeFileSync(files.output, '');
  const ran: Array<{ name: string; code: number; stdout: string; stderr: string }> = [];
  for (const step of action.runs.steps) {
    if (steps && !steps.includes(step.name)) continue;
    if (step.if !== undefined && !evaluate(step.if, context)) continue;
    expect(step.run).not.toContain('${{'); // expressions reach a script through env only
    const env: NodeJS.ProcessEnv = {
      ...gitEnv(),
      RUNNER_TEMP: runnerTemp,
      GITHUB_ACTION_PATH: actionPath,
      GITHUB_STEP_SUMMARY: files.summary,
      GITHUB_OUTPUT: files.output,
      GITHUB_REPOSITORY: 'owner/repository',
      // No network but loopback: the runtime dependencies come from the registry given.
      ...(registry ? { npm_config_registry: registry } : { npm_config_offline: 'true' }),
      npm_config_cache: path.join(runnerTemp, 'npm-cache'),
      npm_config_update_notifier: 'false',
    };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = substitute(v, context);
    // bash -e -o pipefail, as the runner runs a step.
    const r = await runAsync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], { cwd, env });
    ran.push({ name: step.name, code: r.code, stdout: r.stdout, stderr: r.stderr });
    if (r.code !== 0) break;
  }
  return { ran, summary: readFileSync(files.summary, 'utf8'), output: readFileSync(files.output, 'utf8') };
}

describe('the package as installed', () => {
  it('the Action installs the packed tarball (within the size limit) and checks a pull request with it', async () => {
    const packs = tempDir();
    const tarball = path.join(
      packs,
      execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', packs], {
        cwd: ROOT,
        encoding: 'utf8',
      }).trim(),
    );
    const repo = makeRepo();
    repo.handoff(['init']);
    repo.write(pinPath(id(1)), pinText({ id: id(1) }, 'never touch src/auth\n'));
    repo.handoff(['roadmap']);
    repo.commit('handoff set up');
    const base = repo.git('rev-parse', 'HEAD').trim();
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write(handoffPath(id(2)), handoffText({ id: id(2), goal: 'feature goal' }));
    repo.handoff(['roadmap']);
    repo.commit('feature');

    const runnerTemp = tempDir();
    const registry = await startRegistry(ROOT);
    const clean = await runAction(
      repo.dir,
      runnerTemp,
      { version: tarball, base },
      ROOT,
      undefined,
      registry.url,
    ).finally(registry.close);
    expect(registry.asked).toContain('yaml'); // the dependencies were resolved here
    expect(
      clean.ran.map((s) => [s.name, s.code]),
      JSON.stringify(clean.ran, null, 2),
    ).toEqual([
      ['install git-handoff', 0],
      ['handoff check', 0],
    ]);
    const version = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(clean.ran[0]!.stdout).toContain(`handoff: running handoff ${version}\n`);
    expect(clean.output).toBe('status=0\n');
    expect(clean.summary).toContain('| added | open | feature goal |');

    const installed = bytesUnder(path.join(runnerTemp, 'git-handoff', 'node_modules'));
    console.log(
      `installed from the tarball with its runtime dependencies: ${(installed / 1024 / 1024).toFixed(1)} MB (limit ${MAX_INSTALLED_BYTES / 1024 / 1024} MB)`,
    );
    expect(installed).toBeLessThanOrEqual(MAX_INSTALLED_BYTES);
    expect(installed).toBeGreaterThan(1024 * 1024); // the measure saw the install

    // A broken handoff on the branch: the step fails, says where, and the output says so.
    repo.write(handoffPath(id(3)), handoffText({ id: id(3), goal: 'orphan', parent: id(9) }));
    repo.handoff(['roadmap']);
    repo.commit('orphan');
    const broken = await runAction(repo.dir, runnerTemp, { version: tarball, base }, ROOT, ['handoff check']);
    expect(broken.ran.map((s) => [s.name, s.code])).toEqual([['handoff check', 1]]);
    expect(broken.ran[0]!.stdout).toContain(`::error file=${handoffPath(id(3))},`);
    expect(broken.output).toBe('status=1\n');
  });

  it("by default, the Action asks for the version its own package.json names, never 'latest'", async () => {
    // An action checkout whose version is not in npm's cache: offline, the registry install
    // fails, and the step says which version it wanted before building from the checkout
    // (which fails here at once: this checkout has no lock file to build from).
    const actionPath = tempDir();
    mkdirSync(actionPath, { recursive: true });
    writeFileSync(
      path.join(actionPath, 'package.json'),
      JSON.stringify({ name: 'git-handoff', version: '0.0.0-pinned' }),
    );
    const r = await runAction(tempDir(), tempDir(), {}, actionPath, ['install git-handoff']);
    expect(r.ran).toHaveLength(1);
    expect(r.ran[0]!.code).not.toBe(0);
    expect(r.ran[0]!.stdout).toContain(
      "handoff: git-handoff@0.0.0-pinned could not be installed from the registry (npm said why above); building it from this action's checkout\n",
    );
    expect(r.ran[0]!.stderr).toContain('ENOTCACHED'); // npm's own reason: offline, and not in its cache
    expect(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')).not.toMatch(/@latest/);
  });
});
