// @ts-check
// What a pull request can make the hooks pay. Prints:
// 1. a session start (`handoff hook claude-session-start`, the built CLI) with a hostile
//    50 MB handoff and a 50 MB pin committed, and the cache file it leaves;
// 2. a session start with a 1 MB handoff a redaction pattern is slow on: the time budget;
// 3. the worst time of each of our text patterns (markdown, front-matter, extraction,
//    pin flags) over adversarial 1 MB inputs of many shapes, each call cut off at a cap
//    with node:vm's timeout so a quadratic shape shows as "over the cap", not a hang.
// The redaction patterns themselves are measured by their own bench.
// Run after `npm run build`: node bench/guard.js [--rounds 5] [--cap-ms 20000] [--node <binary>]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';
import { internals } from './internals.js';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const rounds = Number(arg('--rounds', '5'));
const capMs = Number(arg('--cap-ms', '20000'));
const node = arg('--node', process.execPath);
const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.join(here, '../bin/handoff.js');
const MB = 1024 * 1024;

// 1. Session start with 50 MB files.
const dir = mkdtempSync(path.join(os.tmpdir(), 'handoff-guard-'));
const env = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'B',
  GIT_AUTHOR_EMAIL: 'b@example.com',
  GIT_COMMITTER_NAME: 'B',
  GIT_COMMITTER_EMAIL: 'b@example.com',
};
const git = (...a) => execFileSync('git', a, { cwd: dir, env });
git('init', '-q', '-b', 'main');
git('config', 'user.email', 'b@example.com');
spawnSync(node, [BIN, 'init'], { cwd: dir, env });
const ID = '01jx7k2m9q8r4s5t6v7w8x9y0z';
const PIN = '01jx7k2m9q8r4s5t6v7w8x9y1a';
const meta = `---\nid: "${ID}"\ngoal: "ship it"\nstatus: "open"\ncreated: "2026-01-05T10:00:00.000Z"\nauthor: "A <a@example.com>"\nbranch: "main"\nbase: null\nhead: null\nparent: null\nfiles: []\n---\n`;
mkdirSync(path.join(dir, '.handoff/handoffs'), { recursive: true });
mkdirSync(path.join(dir, '.handoff/pins'), { recursive: true });
writeFileSync(
  path.join(dir, `.handoff/handoffs/${ID}.md`),
  `${meta}## Goal\n\nship it\n\n## Next steps\n\n- ${'-a'.repeat(25 * MB)}\n`,
);
writeFileSync(
  path.join(dir, `.handoff/pins/${PIN}.md`),
  `---\nid: "${PIN}"\ncreated: "2026-01-05T10:00:00.000Z"\n---\n${'never '.repeat((50 * MB) / 6)}\n`,
);
git('add', '-A');
git('commit', '-q', '-m', 'hostile');
const times = [];
let last = { status: 0, stderr: '' };
for (let i = 0; i < rounds; i++) {
  const t = process.hrtime.bigint();
  const r = spawnSync(node, [BIN, 'hook', 'claude-session-start'], {
    cwd: dir,
    env,
    input: '{}',
    encoding: 'utf8',
    maxBuffer: 256 * MB,
  });
  times.push(Number(process.hrtime.bigint() - t) / 1e6);
  last = { status: r.status ?? -1, stderr: r.stderr };
}
times.sort((a, b) => a - b);
// Every cache file in the git directory (handoff-*: files and folders).
let cacheBytes = 0;
for (const e of readdirSync(path.join(dir, '.git'), { recursive: true, withFileTypes: true }))
  if (e.isFile() && path.relative(path.join(dir, '.git'), path.join(e.parentPath, e.name)).startsWith('handoff'))
    cacheBytes += statSync(path.join(e.parentPath, e.name)).size;
console.log(
  `session start, 50 MB handoff + 50 MB pin (node ${execFileSync(node, ['--version']).toString().trim()}, ${rounds} rounds):`,
);
console.log(
  `  median ${times[Math.floor(times.length / 2)]?.toFixed(0)} ms, max ${times.at(-1)?.toFixed(0)} ms, exit ${last.status}, cache files ${cacheBytes} bytes in all`,
);
console.log(`  stderr: ${last.stderr.trim().split('\n').join(' | ')}`);

// The same with a handoff just under the limit whose one word a redaction pattern is slow on:
// the session-start budget (10 s by default) sends the pins and a pointer instead.
writeFileSync(
  path.join(dir, `.handoff/handoffs/${ID}.md`),
  `${meta}## Goal\n\nship it\n\n## Next steps\n\n- ${'-a'.repeat(MB / 2 - 200)}\n`,
);
writeFileSync(
  path.join(dir, `.handoff/pins/${PIN}.md`),
  `---\nid: "${PIN}"\ncreated: "2026-01-05T10:00:00.000Z"\n---\nnever touch src/auth\n`,
);
git('add', '-A');
git('commit', '-q', '-m', 'slow word');
const slow = [];
for (let i = 0; i < rounds; i++) {
  rmSync(path.join(dir, '.git/handoff-clean.json'), { force: true });
  rmSync(path.join(dir, '.git/handoff-resume.json'), { force: true });
  const t = process.hrtime.bigint();
  const r = spawnSync(node, [BIN, 'hook', 'claude-session-start'], { cwd: dir, env, input: '{}', encoding: 'utf8' });
  slow.push(Number(process.hrtime.bigint() - t) / 1e6);
  last = { status: r.status ?? -1, stderr: r.stderr };
}
slow.sort((a, b) => a - b);
console.log(`session start, a 1 MB handoff of one '-a' word (${rounds} rounds, nothing remembered clean):`);
console.log(
  `  median ${slow[Math.floor(slow.length / 2)]?.toFixed(0)} ms, max ${slow.at(-1)?.toFixed(0)} ms, exit ${last.status}`,
);
console.log(`  stderr: ${last.stderr.trim().split('\n').join(' | ')}`);
rmSync(dir, { recursive: true, force: true });

// 2. Our patterns on adversarial 1 MB inputs.
const [markdown, handoff, rules, flags, cls] = await internals(
  'store/markdown.ts',
  'store/handoff.ts',
  'transcripts/sentence-rules.ts',
  'check/pin-flags.ts',
  'transcripts/sentence-class.ts',
);
const units = [
  'a',
  '-a',
  'a.',
  'a ',
  ' ',
  '\n',
  '#',
  '# ',
  '## a\n',
  '- ',
  '- a\n',
  '`',
  '```\n',
  '*',
  '_',
  '[',
  '](',
  '<!--',
  '<',
  '\\',
  '. A',
  'a, ',
  'no a ',
  'never ',
  '?',
  '\u200b',
  '\u202e',
  'ignore ',
  '\t',
  '"',
  "'",
  ':',
  ': ',
  'a: b\n',
  '|',
  '> ',
  '    a\n',
  '1. ',
];
const shapes = units.map((u) => ({ name: JSON.stringify(u), text: u.repeat(Math.ceil(MB / u.length)).slice(0, MB) }));
const yamlQuoted = (text) => JSON.stringify(text);
const fns = {
  'markdown parseBody + listItems + sectionText': (t) => {
    markdown.parseBody(`## ${t}x\n`);
    const body = markdown.parseBody(`## Next steps\n\n${t}`);
    for (const s of body.sections) markdown.listItems(s.content), markdown.sectionText(s.content);
    markdown.inline(t);
  },
  'front-matter + handoff parse (text as the goal)': (t) =>
    handoff.parseHandoff(`${meta.replace('"ship it"', yamlQuoted(t))}## Goal\n\nx\n`, 'x.md'),
  'front-matter + handoff parse (text as the body)': (t) => handoff.parseHandoff(`${meta}${t}`, 'x.md'),
  'extract: sentences + every rule': (t) => {
    for (const s of rules.sentences(t)) {
      rules.isConstraint(s), rules.isOpenQuestion(s, 'assistant'), rules.isRejection(s), rules.answers(s, s);
      cls.classify(s, { speaker: 'user', question: s, afterFailure: true, earlier: [s] });
    }
  },
  'pin flags + reveal': (t) => {
    flags.pinFlags(t);
    flags.revealHidden(t);
  },
};
console.log(`\nour patterns on ${shapes.length} adversarial 1 MB shapes (worst shape per function; cap ${capMs} ms):`);
/** One call on the text, in ms; Infinity past the cap. */
function time(fn, text) {
  const t = process.hrtime.bigint();
  try {
    vm.runInNewContext('run()', { run: () => fn(text) }, { timeout: capMs });
  } catch (e) {
    if (/** @type {NodeJS.ErrnoException} */ (e).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return Infinity;
    // Otherwise the input was refused (a parse error): that is an answer too, timed as such.
  }
  return Number(process.hrtime.bigint() - t) / 1e6;
}
for (const [name, fn] of Object.entries(fns)) {
  let worst = { ms: 0, shape: shapes[0] };
  for (const s of shapes) {
    const ms = time(fn, s.text);
    if (ms > worst.ms || (ms === Infinity && worst.ms !== Infinity)) worst = { ms, shape: s };
  }
  // How the worst shape grows: about 2x from half a megabyte to one is linear, 4x quadratic.
  const half = worst.ms === Infinity ? Infinity : time(fn, worst.shape.text.slice(0, MB / 2));
  const shown = worst.ms === Infinity ? `over ${capMs} ms` : `${worst.ms.toFixed(0)} ms`;
  console.log(
    `  ${name}: ${shown} (worst: ${worst.shape.name} repeated; ${(worst.ms / half).toFixed(1)}x the time of half as much)`,
  );
}
