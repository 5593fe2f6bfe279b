// What `npm pack` ships: the built program, its templates, docs and license; no tests,
// fixtures, sources, source maps or .handoff/ records. Every relative import and every
// template the built code names must be in the package.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

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
