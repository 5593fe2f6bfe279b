// The README's session is what the commands print: each `$ handoff ...` of the console
// block runs in a repository in the state the README describes, and its output (stderr,
// then stdout) must match the lines that follow it, ids, hashes and dates aside; `[...]`
// stands for text the README leaves out.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from './helpers.js';

const README = readFileSync(path.resolve(__dirname, '../README.md'), 'utf8');

/** The first ````console block: [command line, expected output] pairs. */
function session(): Array<[string, string]> {
  const block = /^````console\n([\s\S]*?)^````$/m.exec(README)?.[1] ?? '';
  return block
    .split(/^\$ /m)
    .filter(Boolean)
    .map((part) => {
      const eol = part.indexOf('\n');
      return [part.slice(0, eol), part.slice(eol + 1).replace(/\n+$/, '')] as [string, string];
    });
}

/** Words of a command line, with '...' quoting as the README writes it. */
const words = (line: string) => [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);

function normalise(text: string): string {
  return text
    .replace(/\b[0-9a-hjkmnp-tv-z]{26}\b/g, '<id>')
    .replace(/\b01[0-9a-hjkmnp-tv-z]{6}\b/g, '<short>')
    .replace(/\b[0-9a-f]{7,40}\b/g, '<sha>')
    .replace(/\d{4}-\d\d-\d\d/g, '<date>')
    .replace(/\/\d{4}-\d\d\/\d\d\//g, '/<day>/')
    .replace(/\n+$/, '');
}

function pattern(expected: string): RegExp {
  const escaped = normalise(expected)
    .split(' [...]')
    .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*?');
  return new RegExp(`^${escaped}$`);
}

describe('README', () => {
  it('shows the output the commands print', () => {
    const repo = makeRepo();
    repo.git('checkout', '-q', '-b', 'teams');
    repo.commit('Add billing plans', { 'src/billing.ts': 'export const plans = [];\n' });
    repo.write('src/teams.ts', 'export const teams = [];\n');
    const steps = session();
    expect(steps.map(([line]) => line.split(' ')[1])).toEqual(['init', 'pin', 'new', 'list', 'resume', 'done']);
    for (const [line, expected] of steps) {
      const [program, ...args] = words(line);
      expect(program).toBe('handoff');
      const r = repo.handoff(args);
      expect(r.code, `${line}: ${r.stderr}`).toBe(0);
      const got = normalise(r.stderr + r.stdout);
      expect(got, line).toMatch(pattern(expected));
    }
  });
});
