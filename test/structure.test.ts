// The shape of src/: no import cycles (dynamic imports included: a lazily loaded module
// must not reach back into its loader), command modules loaded only by the command table
// (what commands share lives beside them, not inside another command), and each
// third-party dependency imported by exactly one file, so replacing one touches one place.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../src');

function sources(dir = SRC): string[] {
  return readdirSync(dir).flatMap((n) => {
    const f = path.join(dir, n);
    return statSync(f).isDirectory() ? sources(f) : f.endsWith('.ts') ? [f] : [];
  });
}

/** Runtime imports of a file: static (not `import type`) and dynamic. */
function imports(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^import\s+(type\s)?[^'";]*?from\s+'([^']+)'|^import\s+'([^']+)'/gm))
    if (!m[1]) out.push((m[2] ?? m[3])!);
  for (const m of text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) out.push(m[1]!);
  return out;
}

/** Every import of ours, type-only ones included: a layer must not even name a type from above. */
function allImports(text: string): string[] {
  return [
    ...[...text.matchAll(/^(?:import|export)\s[^'";]*?from\s+'(\.[^']+)'/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g)].map((m) => m[1]!),
  ];
}

/**
 * The layers under the commands, lowest first (AGENTS.md, "Layers"): each may import only
 * those before it. Every other folder is a feature, above all of them, and `cli` is the top:
 * it wires the features, and nothing imports it.
 */
const LAYERS = ['core', 'security', 'store', 'git', 'command'];

const packageOf = (spec: string) =>
  spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;

describe('src/ structure', () => {
  const files = sources();
  const graph = new Map<string, string[]>();
  const importers = new Map<string, Set<string>>();
  for (const file of files) {
    const specs = imports(readFileSync(file, 'utf8'));
    graph.set(
      file,
      specs.filter((s) => s.startsWith('.')).map((s) => path.resolve(path.dirname(file), s.replace(/\.js$/, '.ts'))),
    );
    for (const s of specs.filter((x) => !x.startsWith('.') && !x.startsWith('node:'))) {
      const name = packageOf(s);
      importers.set(name, (importers.get(name) ?? new Set()).add(path.relative(SRC, file)));
    }
  }

  it('has no import cycles', () => {
    expect(files.length).toBeGreaterThan(50);
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (f: string) => {
      state.set(f, 'open');
      stack.push(f);
      for (const g of graph.get(f) ?? []) {
        if (state.get(g) === 'open')
          cycles.push([...stack.slice(stack.indexOf(g)), g].map((x) => path.relative(SRC, x)).join(' -> '));
        else if (!state.has(g)) visit(g);
      }
      stack.pop();
      state.set(f, 'done');
    };
    for (const f of files) if (!state.has(f)) visit(f);
    expect(cycles).toEqual([]);
  });

  it('has layers that only point down: core <- security <- store <- git <- command <- features <- cli', () => {
    const folderOf = (file: string) => path.relative(SRC, file).split(path.sep)[0]!;
    const edges = new Map<string, Map<string, number>>();
    for (const file of files) {
      const from = folderOf(file);
      for (const spec of allImports(readFileSync(file, 'utf8'))) {
        const to = folderOf(path.resolve(path.dirname(file), spec));
        if (to === from) continue;
        const row = edges.get(from) ?? new Map<string, number>();
        edges.set(from, row.set(to, (row.get(to) ?? 0) + 1));
      }
    }
    // A feature or cli ranks above every layer, so a layer's edge up or sideways is a defect
    // and no cycle can form through the layers.
    const rank = (folder: string) => (LAYERS.includes(folder) ? LAYERS.indexOf(folder) : LAYERS.length);
    const upward = [...edges]
      .filter(([from]) => LAYERS.includes(from))
      .flatMap(([from, row]) => [...row.keys()].filter((to) => rank(to) >= rank(from)).map((to) => `${from} -> ${to}`));
    const graph = [...edges]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([from, row]) => `  ${from} -> ${[...row].map(([to, n]) => `${to} ${n}`).join(', ')}`)
      .join('\n');
    expect(edges.get('core'), `core imports nothing of ours; the graph:\n${graph}`).toBeUndefined();
    expect(upward, `a layer imports one above it; the graph:\n${graph}`).toEqual([]);
    const intoCli = [...edges].filter(([, row]) => row.has('cli')).map(([from]) => from);
    expect(intoCli, `only cli wires; nothing imports it; the graph:\n${graph}`).toEqual([]);
    // The features among themselves: a folder graph without cycles, so each can be read
    // (and moved) knowing only what it stands on.
    const folderCycles: string[] = [];
    const seen = new Map<string, 'open' | 'done'>();
    const path_: string[] = [];
    const walk = (f: string) => {
      seen.set(f, 'open');
      path_.push(f);
      for (const g of edges.get(f)?.keys() ?? []) {
        if (seen.get(g) === 'open') folderCycles.push([...path_.slice(path_.indexOf(g)), g].join(' -> '));
        else if (!seen.has(g)) walk(g);
      }
      path_.pop();
      seen.set(f, 'done');
    };
    for (const f of edges.keys()) if (!seen.has(f)) walk(f);
    expect(folderCycles, `folders that import each other; the graph:\n${graph}`).toEqual([]);
    expect(edges.get('store')?.get('core'), 'the graph was read').toBeGreaterThan(0);
  });

  it('spawns git only in src/git/: every other folder asks the one client (git/git.ts, on git/git-changes.ts, on git/git-records.ts)', () => {
    const plumbing = path.join(SRC, 'git/git-plumbing.ts');
    const outside = [...graph]
      .filter(([file, deps]) => !file.startsWith(path.join(SRC, 'git') + path.sep) && deps.includes(plumbing))
      .map(([file]) => path.relative(SRC, file));
    expect(graph.get(path.join(SRC, 'git/git-records.ts'))).toContain(plumbing);
    expect(graph.get(path.join(SRC, 'git/git-changes.ts'))).toContain(path.join(SRC, 'git/git-records.ts'));
    expect(graph.get(path.join(SRC, 'git/git.ts'))).toContain(path.join(SRC, 'git/git-changes.ts'));
    expect(outside).toEqual([]);
    const spawning = files.filter(
      (f) => !f.startsWith(path.join(SRC, 'git') + path.sep) && /spawn\w*\(\s*'git'/.test(readFileSync(f, 'utf8')),
    );
    expect(spawning.map((f) => path.relative(SRC, f))).toEqual([]);
  });

  it('loads command modules only from the command table: no module imports another command', () => {
    const spec = path.join(SRC, 'cli/commands.ts');
    const commands = new Set(graph.get(spec));
    expect(commands.size).toBeGreaterThan(15);
    const offenders = [...graph].flatMap(([file, deps]) =>
      file === spec
        ? []
        : deps.filter((d) => commands.has(d)).map((d) => `${path.relative(SRC, file)} -> ${path.relative(SRC, d)}`),
    );
    expect(offenders).toEqual([]);
  });

  it('is indexed by AGENTS.md: one line per folder and per file, none stale', () => {
    const index = readFileSync(path.resolve(__dirname, '../AGENTS.md'), 'utf8');
    const listed = new Set([...index.matchAll(/^- `src\/([^`]+)`: \S/gm)].map((m) => m[1]!));
    const present = new Set([...files.map((f) => path.relative(SRC, f)), ...readdirSync(SRC).map((d) => `${d}/`)]);
    expect(
      [...present].filter((f) => !listed.has(f)),
      'not in AGENTS.md',
    ).toEqual([]);
    expect(
      [...listed].filter((f) => !present.has(f)),
      'in AGENTS.md but gone',
    ).toEqual([]);
  });

  it('imports each third-party dependency from one file, and only declared ones (optional peers included)', () => {
    const pkg = JSON.parse(readFileSync(path.resolve(__dirname, '../package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    const declared = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies ?? {})];
    expect(importers.size).toBeGreaterThan(5);
    for (const [name, by] of importers) {
      expect([...by], name).toHaveLength(1);
      expect(declared, `${name} is imported but not a dependency`).toContain(name);
    }
  });
});
