// Benchmarks that call functions inside the program (not the CLI) import them from here:
// dist/ holds one bundle with no module per source file, so this builds the modules a
// benchmark names into bench/.build/ (flat, one folder below the package root like
// dist/'s files, so templates and package.json resolve the same way) and imports them.
//   const [{ estimateTokens }] = await internals('transcripts/tokens.ts');
import path from 'node:path';
import { bundle } from '../scripts/bundle.js';

export async function internals(...modules) {
  await bundle(modules, 'bench/.build', { entry: '[name]', chunk: '[name]-[hash]' });
  return Promise.all(modules.map((m) => import(new URL(`.build/${path.basename(m, '.ts')}.js`, import.meta.url).href)));
}
