// @ts-check
// The import graph of src/'s top folders: which folder imports which, and how many import
// statements carry each edge (type-only imports count: they are dependencies too).
//   node bench/layers.js [src folder, e.g. another checkout's src/ to compare]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = process.argv[2] ? path.resolve(process.argv[2]) : fileURLToPath(new URL('../src', import.meta.url));

/** @param {string} dir @returns {string[]} */
function sources(dir = SRC) {
  return readdirSync(dir).flatMap((n) => {
    const f = path.join(dir, n);
    return statSync(f).isDirectory() ? sources(f) : f.endsWith('.ts') ? [f] : [];
  });
}

const folderOf = (/** @type {string} */ file) => path.relative(SRC, file).split(path.sep)[0];

/** @type {Map<string, Map<string, number>>} */
const edges = new Map();
for (const file of sources()) {
  const text = readFileSync(file, 'utf8');
  const specs = [
    ...[...text.matchAll(/^(?:import|export)\s[^'";]*?from\s+'(\.[^']+)'/gm)].map((m) => m[1]),
    ...[...text.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g)].map((m) => m[1]),
  ];
  const from = folderOf(file);
  for (const s of specs) {
    const to = folderOf(path.resolve(path.dirname(file), s));
    if (to === from) continue;
    const row = edges.get(from) ?? new Map();
    row.set(to, (row.get(to) ?? 0) + 1);
    edges.set(from, row);
  }
}
for (const from of [...edges.keys()].sort()) {
  const row = edges.get(from) ?? new Map();
  const list = [...row].sort((a, b) => a[0].localeCompare(b[0])).map(([to, n]) => `${to} ${n}`);
  console.log(`${from.padEnd(12)} -> ${list.join(', ')}`);
}
