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
// second; a small plugin below shapes what node loads at run time.
//
// Every output file sits one folder below the output root (dist/cli/, dist/chunks/), so
// `../../templates/` and `../../package.json` resolve from each of them.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Loaded only by the commands that need them: never part of the bundle. */
export const EXTERNAL = [
  'yargs',
  'yargs/*',
  'diff',
  'ulid',
  // An optional peer dependency (handoff mcp): installed by the user beside git-handoff, or not at all.
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/server/*',
];

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

/** Bundles src/ modules (paths under src/) into `outdir` (relative to the package root), emptied first; returns esbuild's metafile. */
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
    plugins: [hotPath],
    logLevel: 'warning',
    metafile: true,
  });
  return metafile;
}

/**
 * Refuses a build where a file every run loads (an entry and the chunks it imports
 * statically) holds a character past ASCII: node then keeps that file's whole source as
 * two-byte text, twice the memory for every session start to decode and scan. esbuild
 * escapes such characters in strings, not in regular expression literals: write `\u2026`.
 */
function assertAscii(metafile, entry) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const i of metafile.outputs[file].imports) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  visit(entry);
  for (const file of seen) {
    const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
    const at = lines.findIndex((line) => /[^\x00-\x7f]/.test(line));
    if (at >= 0)
      throw new Error(`${file}:${at + 1}: a character past ASCII in a file every run loads: ${lines[at].trim()}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  assertAscii(await bundle(['cli/cli.ts'], 'dist'), 'dist/cli/cli.js');
