// Mutation fuzzing of the file parsers: seeds are real handoff, pin and config files plus
// slices of the transcript fixtures; mutations truncate, flip bits, splice, and
// drop in YAML traps. The only acceptable outcomes are "parsed" or a FileFormatError /
// HandoffError (the one-line error a user sees); anything else is a bug.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../../src/core/errors.js';
import { configFrom } from '../../src/store/config.js';
import { frontMatterData, parseFrontMatter, parseYamlFile, splitFrontMatter } from '../../src/store/frontmatter.js';
import { parseHandoff, serializeHandoff } from '../../src/store/handoff.js';
import { parsePin, serializePin } from '../../src/store/pin.js';

/** A small deterministic PRNG (mulberry32), so a failing seed can be replayed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TRAPS = [
  '---\n',
  '...\n',
  '&a ',
  '*a ',
  '!!js/function ',
  '!x ',
  '<<: *a\n',
  '[',
  '{',
  ']',
  '}',
  '"',
  "'",
  '\\',
  '\0',
  '\t',
  '\r',
  '\ufeff',
  '\ud800',
  '- ',
  ': ',
  '? ',
  '|\n',
  '>\n',
  '%YAML 1.2\n',
  '# c\n',
  'files:\n  - path: "../x"\n',
  'id: 1\n',
  '\n\n',
];

export function seeds(fixtures: string): string[] {
  const meta = {
    id: '01jx7k2m9q8r4s5t6v7w8x9y0z',
    goal: 'add team billing: "quoted" & more',
    status: 'open' as const,
    created: '2026-01-05T10:00:00.000Z',
    author: 'A <a@example.com>',
    branch: 'feature/x',
    base: 'a'.repeat(40),
    head: 'b'.repeat(40),
    parent: '01jx7k2m9q8r4s5t6v7w8x9y0y',
    files: [
      {
        path: 'src/a b.ts',
        change: 'renamed' as const,
        from: 'src/old.ts',
        insertions: 3,
        deletions: 1,
        state: 'committed' as const,
      },
      { path: 'img.png', change: 'added' as const, binary: true, state: 'untracked' as const },
    ],
  };
  const out = [
    serializeHandoff(meta, '## Goal\n\nship\n\n## Next steps\n\n- [ ] one\n- [x] two\n\n```\n## not a section\n```\n'),
    serializePin(
      {
        id: '01jx7k2m9q8r4s5t6v7w8x9y1a',
        created: '2026-01-05T10:00:00.000Z',
        author: 'A',
        status: 'active',
        scope: ['src/**'],
        supersedes: '01jx7k2m9q8r4s5t6v7w8x9y1b',
      },
      'never touch src/auth\n',
    ),
    '# config\ndefault_branch: main\ndraft_commits: 20\nunknown: [1, 2]\n',
  ];
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) =>
      statSync(path.join(dir, n)).isDirectory() ? walk(path.join(dir, n)) : [path.join(dir, n)],
    );
  try {
    for (const file of walk(fixtures).sort()) out.push(readFileSync(file, 'utf8').slice(0, 20_000));
  } catch {
    // The fixtures are optional material for splicing.
  }
  return out;
}

export function mutate(input: string, others: readonly string[], rand: () => number): string {
  const at = () => Math.floor(rand() * (input.length + 1));
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  let s = input;
  const steps = 1 + Math.floor(rand() * 4);
  for (let i = 0; i < steps; i++) {
    const p = at();
    switch (Math.floor(rand() * 7)) {
      case 0:
        s = s.slice(0, p);
        break; // truncated
      case 1: {
        // bit-flipped
        const b = Buffer.from(s, 'utf8');
        if (b.length > 0) {
          const j = Math.floor(rand() * b.length);
          b[j] = b[j]! ^ (1 << Math.floor(rand() * 8));
        }
        s = b.toString('utf8');
        break;
      }
      case 2: {
        const o = pick(others);
        const q = Math.floor(rand() * o.length);
        s = s.slice(0, p) + o.slice(q, q + Math.floor(rand() * 400)) + s.slice(p);
        break;
      } // spliced
      case 3:
        s = s.slice(0, p) + pick(TRAPS) + s.slice(p);
        break;
      case 4: {
        const lines = s.split('\n');
        lines.splice(Math.floor(rand() * lines.length), 1);
        s = lines.join('\n');
        break;
      }
      case 5: {
        const lines = s.split('\n');
        const j = Math.floor(rand() * lines.length);
        lines.splice(j, 0, lines[j] ?? '');
        s = lines.join('\n');
        break;
      }
      default:
        s = s.slice(0, p) + s.slice(p + Math.floor(rand() * 20));
        break;
    }
  }
  return s;
}

export interface Outcomes {
  inputs: number;
  parsed: number;
  refused: number;
  /** Anything that was not a clean parse or a one-line user error: must stay empty. */
  crashes: Array<{ parser: string; input: string; error: string }>;
}

const PARSERS: ReadonlyArray<[string, (text: string) => unknown]> = [
  ['handoff', (t) => parseHandoff(t, 'h.md')],
  ['pin', (t) => parsePin(t, 'p.md')],
  ['front-matter', (t) => frontMatterData(parseFrontMatter(splitFrontMatter(t, 'f.md').yaml, 'f.md'), 'f.md')],
  ['config', (t) => configFrom(parseYamlFile(t, 'config.yml'), 'config.yml')],
];

export function fuzz(count: number, seed: number, fixtures: string): Outcomes {
  const rand = prng(seed);
  const material = seeds(fixtures);
  const result: Outcomes = { inputs: 0, parsed: 0, refused: 0, crashes: [] };
  for (let i = 0; i < count; i++) {
    const input = mutate(material[i % 3]!, material, rand);
    for (const [name, parse] of PARSERS) {
      result.inputs++;
      try {
        parse(input);
        result.parsed++;
      } catch (error) {
        if (error instanceof HandoffError && !error.message.includes('\n')) result.refused++;
        else
          result.crashes.push({
            parser: name,
            input: input.slice(0, 300),
            error: String((error as Error)?.stack ?? error).slice(0, 300),
          });
      }
    }
  }
  return result;
}
