// The build compiles the hot chunk's functions with the chunk (scripts/eager.js), so
// node's compile cache keeps them: the rewritten module must behave as the one esbuild
// wrote, and V8 must compile its functions up front.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { BIN, tempDir } from './helpers.js';

// A path in a variable: the build script is plain JavaScript, outside the type check.
const script = '../scripts/eager.js';
const { eagerFunctions } = (await import(script)) as { eagerFunctions: (code: string) => string };

/** A module as esbuild writes one: banner, imports, functions used before they are declared, each kind of function. */
const MODULE = `const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);
import { join } from "node:path";
import "node:fs";
const early = twice(21);
var table = { run: () => counted() };
function twice(n) {
  return n * 2;
}
async function later(x) {
  return join("a", String(await x));
}
function* pairs() {
  yield [twice(1), typeof require];
}
let calls = 0;
function counted() { return ++calls; }
const result = { early, named: [twice.name, later.name, pairs.name], pairs: [...pairs()], run: [table.run(), table.run()] };
export { result, later, twice as double };
`;

async function load(code: string): Promise<Record<string, unknown>> {
  const file = path.join(tempDir(), 'module.mjs');
  writeFileSync(file, code);
  return (await import(file)) as Record<string, unknown>;
}

describe('functions compiled with their module (scripts/eager.js)', () => {
  it('a rewritten module behaves as the one esbuild wrote, functions used before their declaration included', async () => {
    const rewritten = eagerFunctions(MODULE);
    expect(rewritten).toContain('var twice = (function twice(n) {');
    expect(rewritten).toContain('var later = (async function later(x) {');
    expect(rewritten).not.toMatch(/^(async )?function/m);
    const [before, after] = [await load(MODULE), await load(rewritten)];
    expect(after.result).toEqual(before.result);
    expect(after.result).toEqual({
      early: 42,
      named: ['twice', 'later', 'pairs'],
      pairs: [[2, 'function']],
      run: [1, 2],
    });
    expect(await (after.later as (x: Promise<number>) => Promise<string>)(Promise.resolve(7))).toBe(
      path.join('a', '7'),
    );
    expect((after.double as (n: number) => number)(5)).toBe(10);
    // Nothing left to rewrite: the build can run it on its own output.
    expect(eagerFunctions(rewritten)).toBe(rewritten);
  });

  it('V8 compiles the rewritten functions with the code around them, so a code cache holds them', () => {
    const body = (i: number) =>
      `function f${i}(a) { let s = 0; for (const x of a) s += x * ${i}; return [s, String(s), JSON.stringify({ s })].join(','); }`;
    const code = Array.from({ length: 40 }, (_, i) => body(i)).join('\n');
    const cached = (source: string) => new vm.Script(source).createCachedData().length;
    // A lazily compiled function leaves only its outline in the cache.
    expect(cached(eagerFunctions(code))).toBeGreaterThan(3 * cached(code));
  });

  it('refuses a module whose code runs before its imports end', () => {
    expect(() => eagerFunctions('const a = f();\nimport "node:fs";\nfunction f() { return 1; }\n')).toThrow(
      /a statement before the imports end/,
    );
  });

  it('the build rewrote the entry and the hot-path chunk, and only them', () => {
    const dist = path.join(path.dirname(BIN), '../dist');
    const chunks = readdirSync(path.join(dist, 'chunks')).map((f) => path.join(dist, 'chunks', f));
    const rewritten = [path.join(dist, 'cli/cli.js'), ...chunks].filter((f) =>
      /^var \w+ = \((async )?function/m.test(readFileSync(f, 'utf8')),
    );
    const hot = chunks.filter((f) => readFileSync(f, 'utf8').includes('async function buildResume('));
    expect(hot).toHaveLength(1);
    expect(rewritten.sort()).toEqual([path.join(dist, 'cli/cli.js'), hot[0]!].sort());
    for (const file of rewritten) {
      const code = readFileSync(file, 'utf8');
      expect(eagerFunctions(code)).toBe(code);
    }
  });
});
