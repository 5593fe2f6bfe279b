#!/usr/bin/env node
// The build after the type check: src/ bundled by esbuild into dist/cli/cli.js and
// lazily loaded chunks in dist/chunks/. Why: a hook's process now loads a handful of
// files where it used to resolve, read and link about a hundred (our modules, yaml's),
// which was a large part of what a hook cost over `node -e 0`. Code splitting keeps every
// lazily imported module lazy (each command, help, the model path, the transcript
// readers); heavy packages that only rare commands use stay outside the bundle and are
// loaded from node_modules on the paths that need them. esbuild was chosen because it
// bundles ESM TypeScript with code splitting in one call, with no config file and no
// plugins, in well under a second.
//
// Every output file sits one folder below the output root (dist/cli/, dist/chunks/), so
// `../../templates/` and `../../package.json` resolve from each of them.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Loaded only by commands that need them, and heavy: never part of the bundle. */
export const EXTERNAL = ['yargs', 'yargs/*', 'openai', 'gpt-tokenizer', 'sql.js', 'diff'];

/**
 * node:crypto takes about 5 to 10 ms to load, and only some runs use it: to hash work-tree
 * files for the cache key (every read of .handoff/, so resume and the session-start hook
 * do), to name a temp file, or to make an id. Commands and hooks that do none of these
 * (help, the status commands, a pre-commit that stops on a broken file) do not load it.
 * Every import of it resolves to this module, which loads it on first use. A name it does
 * not export fails the build, never a run.
 */
const lazyCrypto = {
  name: 'lazy-crypto',
  setup(build) {
    build.onResolve({ filter: /^(node:)?crypto$/ }, () => ({ path: 'crypto', namespace: 'lazy-crypto' }));
    build.onLoad({ filter: /.*/, namespace: 'lazy-crypto' }, () => ({
      contents: [
        "const load = () => process.getBuiltinModule('node:crypto');",
        'export const createHash = (...args) => load().createHash(...args);',
        'export const randomBytes = (...args) => load().randomBytes(...args);',
        // ulid imports the module whole and calls crypto.randomBytes.
        'export default { randomBytes };',
      ].join('\n'),
      loader: 'js',
    }));
  },
};

/** Bundles src/ modules (paths under src/) into `outdir` (relative to the package root), emptied first. */
export async function bundle(entries, outdir, names = { entry: '[dir]/[name]', chunk: 'chunks/[name]-[hash]' }) {
  rmSync(path.join(root, outdir), { recursive: true, force: true });
  await build({
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
    banner: { js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);" },
    plugins: [lazyCrypto],
    logLevel: 'warning',
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await bundle(['cli/cli.ts'], 'dist');
