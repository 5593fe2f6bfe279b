#!/usr/bin/env node
// The build after the type check: src/ bundled by esbuild into dist/cli/cli.js and
// lazily loaded chunks in dist/chunks/. Why: a hook's process now loads a handful of
// files where it used to resolve, read and link about a hundred (our modules, yaml's),
// which was a large part of what a hook cost over `node -e 0`. Code splitting keeps every
// lazily imported module lazy (each command, help, the model path, the transcript
// readers); heavy packages that only rare commands use stay outside the bundle and are
// loaded from node_modules on the paths that need them. The modules of the hot paths
// (scripts/hot-path.js) are one chunk. esbuild was chosen because it bundles ESM
// TypeScript with code splitting in one call, with no config file, in well under a
// second; two small plugins below shape what node loads at run time.
//
// Every output file sits one folder below the output root (dist/cli/, dist/chunks/), so
// `../../templates/` and `../../package.json` resolve from each of them.
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eagerFunctions } from './eager.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Loaded only by commands that need them, and heavy: never part of the bundle. */
export const EXTERNAL = ['yargs', 'yargs/*', 'diff'];

/**
 * Node's built-in modules without their ES module facade. `import { readFileSync } from
 * 'node:fs'` makes node build an ES module of fs, reading every export, and some exports
 * are getters that load more of node: fs's load fs/promises and streams, util's load
 * worker_threads and diff. Each built-in resolves instead to a module that takes it from
 * `process.getBuiltinModule()` and exports each of its names as a pure expression, so
 * esbuild keeps only the names the code uses and node reads only those (fs.promises on
 * first use). The modules in LAZY are loaded on the first call of one of their functions
 * (their other names are left out). A name the built-in does not have fails the build,
 * never a run.
 */
/** About 5 ms each to load (node:tty loads net and streams), and many runs need none: a hook in a repository without .handoff/ spawns no git. */
const LAZY = ['node:crypto', 'node:child_process', 'node:tty'];
const builtins = {
  name: 'builtins',
  setup(build) {
    // A dynamic import or a require() wants the whole module: node's own, left as written.
    build.onResolve({ filter: /^node:/ }, (args) =>
      args.kind === 'import-statement' ? { path: args.path, namespace: 'builtin' } : { external: true },
    );
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, ({ path: name }) => {
      const module = process.getBuiltinModule(name);
      const load = `process.getBuiltinModule(${JSON.stringify(name)})`;
      const names = Object.keys(module).filter((k) => /^[A-Za-z_$][\w$]*$/.test(k) && k !== 'default');
      const js = (lines) => ({ contents: lines.join('\n'), loader: 'js' });
      if (LAZY.includes(name)) {
        // Its functions only, each loading the module at its first call.
        const functions = names.filter((k) => typeof module[k] === 'function');
        return js([
          `const m = () => ${load};`,
          'export default new Proxy({}, { get: (_, k) => m()[k] });',
          ...functions.map((k) => `export const ${k} = (...args) => m().${k}(...args);`),
        ]);
      }
      // fs.promises is a getter that loads fs/promises: read on first use too.
      const getter = (k) =>
        Object.getOwnPropertyDescriptor(module, k)?.get !== undefined && typeof module[k] === 'object';
      const exported = (k) => (getter(k) ? `new Proxy({}, { get: (_, p) => m.${k}[p] })` : `(() => m.${k})()`);
      return js([
        `const m = ${load};`,
        'export default m;',
        ...names.map((k) => `export const ${k} = /* @__PURE__ */ ${exported(k)};`),
      ]);
    });
  },
};

/**
 * Every module of src/ imports scripts/hot-path.js first, so the modules it lists share
 * one chunk (see that file). Only our own modules: a CommonJS package that imported it
 * would make esbuild wrap those modules to run on first use, and keep every export.
 */
const HOT_PATH = path.join(root, 'scripts/hot-path.js');
const hotPath = {
  name: 'hot-path',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => ({
      contents: `import ${JSON.stringify(HOT_PATH)};\n${await readFile(args.path, 'utf8')}`,
      loader: 'ts',
    }));
  },
};

/** Bundles src/ modules (paths under src/) into `outdir` (relative to the package root), emptied first; returns esbuild's account of what went where. */
export async function bundle(entries, outdir, names = { entry: '[dir]/[name]', chunk: 'chunks/[name]-[hash]' }) {
  rmSync(path.join(root, outdir), { recursive: true, force: true });
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: entries.map((e) => `src/${e}`),
    outbase: 'src',
    outdir,
    entryNames: names.entry,
    chunkNames: names.chunk,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    // jsonc-parser's `main` is a UMD wrapper a bundler cannot follow; its `module` is plain ESM.
    mainFields: ['module', 'main'],
    // Bundled CommonJS packages (yaml) call require() for node's built-ins.
    banner: { js: "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);" },
    plugins: [builtins, hotPath],
    logLevel: 'warning',
    metafile: true,
  });
  return metafile;
}

/**
 * The entries and the hot-path chunk, every run loads them: their functions are compiled
 * with them, so node's compile cache keeps them (eager.js). A module they import must not
 * import them back: its code would run before theirs ends.
 * @param {import('esbuild').Metafile} metafile
 * @param {string[]} entries
 */
function compileEagerly(metafile, entries) {
  // The hot-path file has no code of its own: its chunk is the one of the modules it imports.
  const hot =
    metafile.inputs[path.relative(root, HOT_PATH).split(path.sep).join('/')]?.imports.map((i) => i.path) ?? [];
  const eager = Object.entries(metafile.outputs)
    .filter(([, o]) => entries.includes(o.entryPoint ?? '') || hot.some((i) => i in o.inputs))
    .map(([file]) => file);
  if (eager.length !== entries.length + 1)
    throw new Error(`bundle: expected the entries and one hot-path chunk, found ${eager.join(', ')}`);
  /** @param {string} file @param {Set<string>} seen */
  const reaches = (file, seen = new Set()) => {
    for (const i of metafile.outputs[file]?.imports ?? []) {
      if (i.kind !== 'import-statement' || seen.has(i.path)) continue;
      seen.add(i.path);
      reaches(i.path, seen);
    }
    return seen;
  };
  for (const file of eager) {
    const cycle = [...reaches(file)].find((f) => f !== file && reaches(f).has(file));
    if (cycle) throw new Error(`bundle: ${cycle} imports ${file} back; its functions cannot be compiled eagerly`);
    const full = path.join(root, file);
    writeFileSync(full, eagerFunctions(readFileSync(full, 'utf8')));
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  compileEagerly(await bundle(['cli/cli.ts'], 'dist'), ['src/cli/cli.ts']);
