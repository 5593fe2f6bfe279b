#!/usr/bin/env node
// @ts-check
// A year of a team's handoffs: generated team repositories (chains of 5 to 20 handoffs
// across 50 branches, one open chain per branch, 20 pins, bodies of 1 to 3 KB, one commit
// per handoff that adds it and supersedes its parent), and what each command costs there,
// as a multiple of `node -e 0` measured in the same interleaved run, and in milliseconds
// (`check` closes the open handoffs of the 49 other branches, which all landed here; `check,
// nothing to close` is the one after it, as on a default branch where each merge closed its own;
// `check, cold` is `check --base HEAD~1` with every cache of the tool moved aside, as a fresh
// clone's first check in a pull request's CI;
// the warm session starts are taken once the racy window of the bench's own checkouts has passed,
// as a user's are: settle());
// then the size of the caches those runs left in the git directory against .handoff/'s.
// Prints figures; asserts nothing.
//
//   node bench/team.js [--sizes 100,1000,10000,30000] [--rounds 5] [--layout dated|flat]
//                      [--bin bin/handoff.js] [--scratch <dir>] [--repo-size] [--big]
//
//   --sizes      handoff counts (default 100,1000; the report uses 100,1000,10000,30000)
//   --rounds     interleaved rounds per size; the median is printed (default 5; 7 for the report)
//   --layout     where the generated history keeps handoffs: `dated` (.handoff/handoffs/YYYY-MM/DD/,
//                what this version writes) or `flat` (.handoff/handoffs/<id>.md, the first format)
//   --bin        the handoff launcher to measure (default: this checkout's bin/handoff.js)
//   --scratch    where generated repositories are kept between runs, keyed by size and layout
//                (default: <os temp>/handoff-team-bench); delete it to generate afresh
//   --repo-size  also the repository's size and a clone's time, with and without .handoff/, each
//                from a bare copy packed with a full delta search (`git repack -a -d -f`)
//   --big        also the session start in a code repository of 100,000 files (1,000 handoffs) against `git status`
//   --skip-table only what --repo-size and --big print
//   --clones     clones timed per repository for --repo-size, the median printed (default 3)
//
// Generating uses `git fast-import` (no CLI run per handoff), seeded, so every run builds
// the same repositories. Run it with the node the figures are for (Node 24 for users).
// The last generation commit carries .handoff/ROADMAP.md as the measured tool renders it, as in
// a real team's repository, where the pre-commit hook stages it with every handoff: without it,
// every `new` measured here (after `restore` cleans .handoff/) would render the roadmap from
// the whole tree, which no user's `new` does. GENERATION marks what a generated repository
// holds; a repository marked with an older one is generated afresh.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchEnv } from './env.js';

const { values: opts } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100,1000' },
    rounds: { type: 'string', default: '5' },
    layout: { type: 'string', default: 'dated' },
    bin: { type: 'string', default: fileURLToPath(new URL('../bin/handoff.js', import.meta.url)) },
    scratch: { type: 'string', default: path.join(os.tmpdir(), 'handoff-team-bench') },
    'repo-size': { type: 'boolean', default: false },
    big: { type: 'boolean', default: false },
    'skip-table': { type: 'boolean', default: false },
    clones: { type: 'string', default: '3' },
    help: { type: 'boolean', default: false },
  },
});
if (opts.help) {
  console.log(
    readFileSync(fileURLToPath(import.meta.url), 'utf8')
      .split('\n')
      .slice(1, 30)
      .join('\n'),
  );
  process.exit(0);
}
const SIZES = opts.sizes.split(',').map(Number);
const ROUNDS = Number(opts.rounds);
const LAYOUT = opts.layout;
if (LAYOUT !== 'dated' && LAYOUT !== 'flat') throw new Error(`--layout is dated or flat; got ${LAYOUT}`);
const BIN = path.resolve(opts.bin);
const SEED = 20261124;
/** Written to `.git/bench-ready`; bumped whenever the repositories generated change (2: the roadmap committed). */
const GENERATION = '2';

const env = benchEnv();

const git = (cwd, ...args) => execFileSync('git', args, { cwd, env, encoding: 'utf8', maxBuffer: 1 << 30 });

/** mulberry32: small, seeded, the same sequence on every machine. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';
function ulid(ms, rand) {
  let time = '';
  for (let i = 0, v = ms; i < 10; i++, v = Math.floor(v / 32)) time = CROCKFORD[v % 32] + time;
  let tail = '';
  for (let i = 0; i < 16; i++) tail += CROCKFORD[Math.floor(rand() * 32)];
  return time + tail;
}

const WORDS =
  'cache index branch merge parser token budget session roadmap review billing teams account invoice schema migration retry queue worker limit export import config module test build deploy route handler client server'.split(
    ' ',
  );
const sentence = (rand, n) => Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');

const START = Date.UTC(2025, 10, 24);
const YEAR = 365 * 24 * 3600 * 1000;
const CODE_FILES = 200;

/** The path of a handoff in the layout asked for. */
function handoffPath(id, ms, layout) {
  if (layout === 'flat') return `.handoff/handoffs/${id}.md`;
  const d = new Date(ms).toISOString();
  return `.handoff/handoffs/${d.slice(0, 7)}/${d.slice(8, 10)}/${id}.md`;
}

function handoffText(h) {
  const q = (s) => JSON.stringify(s);
  const lines = [
    '---',
    `id: ${q(h.id)}`,
    `goal: ${q(h.goal)}`,
    `status: ${q(h.status)}`,
    `created: ${q(new Date(h.ms).toISOString())}`,
    `author: "Dev ${h.branch % 10} <dev${h.branch % 10}@example.com>"`,
    `branch: ${q(h.branchName)}`,
    `base: ${h.base ? q(h.base) : 'null'}`,
    `head: ${h.head ? q(h.head) : 'null'}`,
    `parent: ${h.parent ? q(h.parent) : 'null'}`,
    ...(h.superseded_by ? [`superseded_by: ${q(h.superseded_by)}`] : []),
    ...(h.finished ? [`finished: ${q(h.finished)}`] : []),
    'files:',
    ...h.files.flatMap((f) => [
      `  - path: ${q(f)}`,
      '    change: "modified"',
      '    insertions: 3',
      '    deletions: 1',
      '    state: "committed"',
    ]),
    '---',
  ];
  return `${lines.join('\n')}\n${h.body}`;
}

function body(h, rand) {
  const items = (n, words) => Array.from({ length: n }, () => `- ${sentence(rand, words)}`).join('\n');
  const size = 1 + Math.floor(rand() * 3); // 1 to 3 KB
  return [
    `## Goal\n\n${h.goal}\n`,
    `## Completed\n\n${items(3 * size, 8)}\n`,
    `## Current state\n\n${h.files.map((f) => `- \`${f}\` (modified)`).join('\n')}\n`,
    `## In progress\n\n${items(2, 10)}\n`,
    `## Next steps\n\n${items(3 * size, 9)}\n`,
    `## Open questions\n\n${items(size, 8)}\n`,
    `## Decisions\n\n${Array.from({ length: 2 * size }, (_, i) => `- D${i + 1}: ${sentence(rand, 12)}`).join('\n')}\n`,
    `## References\n\n${items(size, 5)}\n`,
  ].join('\n');
}

/**
 * Writes a fast-import stream for `n` handoffs into `file`: a root commit with the code,
 * the config and the pins, then one commit per handoff that changes a code file, adds the
 * handoff and supersedes its parent (or marks the branch's previous chain done).
 * With `withHandoff` false, the same commits without .handoff/ (the comparison for size and clone).
 */
function writeStream(file, n, layout, withHandoff) {
  const rand = random(SEED + n);
  const fd = openSync(file, 'w');
  const out = (s) => writeSync(fd, s);
  const blob = (p, text) => {
    const data = Buffer.from(text);
    out(`M 100644 inline ${p}\ndata ${data.length}\n`);
    writeSync(fd, data);
    out('\n');
  };
  let time = Math.floor(START / 1000);
  const commit = (message, files) => {
    time += 60;
    out(`commit refs/heads/main\ncommitter Bench <bench@example.com> ${time} +0000\n`);
    out(`data ${Buffer.byteLength(message)}\n${message}\n`);
    for (const [p, text] of files) blob(p, text);
    out('\n');
  };
  const code = (i, round) =>
    `// module ${i}\n${Array.from({ length: 30 }, (_, l) => `export const v${l} = ${round * 31 + l}; // ${WORDS[(i + l) % WORDS.length]}`).join('\n')}\n`;
  const root = [];
  for (let i = 0; i < CODE_FILES; i++) root.push([`src/mod${i}.ts`, code(i, 0)]);
  if (withHandoff) {
    root.push(['.handoff/config.yml', '# handoff settings: every key is optional\n']);
    for (let p = 0; p < 20; p++) {
      const id = ulid(START - 1000 + p, rand);
      root.push([
        `.handoff/pins/${id}.md`,
        `---\nid: "${id}"\ncreated: "${new Date(START - 1000 + p).toISOString()}"\nauthor: "Dev ${p % 10} <dev${p % 10}@example.com>"\nstatus: "active"\n---\nRule ${p}: never ${sentence(rand, 8)}.`,
      ]);
    }
  }
  commit('root', root);
  const BRANCHES = 50;
  const chains = Array.from({ length: BRANCHES }, () => ({ last: null, left: 0 }));
  const all = [];
  for (let k = 0; k < n; k++) {
    // The current branch (main, branch 0) writes the last handoff, so its chain is open.
    const b = k === n - 1 ? 0 : Math.floor(rand() * BRANCHES);
    const chain = chains[b];
    const ms = START + Math.floor((k * YEAR) / n);
    const files = Array.from(
      { length: 2 + Math.floor(rand() * 4) },
      () => `src/mod${Math.floor(rand() * CODE_FILES)}.ts`,
    );
    const h = {
      id: ulid(ms, rand),
      ms,
      branch: b,
      branchName: b === 0 ? 'main' : `feature-${b}`,
      goal: `${sentence(rand, 6)} (${b}/${k})`,
      status: 'open',
      parent: null,
      files: [...new Set(files)],
      head: null,
      base: null,
    };
    h.body = body(h, rand);
    const changes = [];
    const m = Math.floor(rand() * CODE_FILES);
    changes.push([`src/mod${m}.ts`, code(m, k + 1)]);
    if (chain.last && chain.left > 0) {
      h.parent = chain.last.id;
      chain.last.status = 'superseded';
      chain.last.superseded_by = h.id;
      chain.left--;
    } else {
      if (chain.last) {
        chain.last.status = 'done';
        chain.last.finished = new Date(ms).toISOString();
      }
      chain.left = 4 + Math.floor(rand() * 16); // chains of 5 to 20
    }
    if (withHandoff) {
      if (chain.last) changes.push([handoffPath(chain.last.id, chain.last.ms, layout), handoffText(chain.last)]);
      changes.push([handoffPath(h.id, ms, layout), handoffText(h)]);
    }
    chain.last = h;
    all.push(h);
    commit(`work ${k}`, changes);
  }
  closeSync(fd);
  return chains[0].last;
}

/** A generated repository, kept in the scratch directory between runs. */
function repository(n, layout, withHandoff = true) {
  const dir = path.join(opts.scratch, `team-${n}-${withHandoff ? layout : 'code-only'}`);
  if (ready(dir)) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const t = performance.now();
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'commit.gpgSign', 'false');
  const stream = path.join(opts.scratch, `stream-${n}.fi`);
  const open = writeStream(stream, n, layout, withHandoff);
  execFileSync('git', ['fast-import', '--quiet'], {
    cwd: dir,
    env,
    stdio: [openSync(stream, 'r'), 'ignore', 'inherit'],
  });
  rmSync(stream);
  git(dir, 'reset', '-q', '--hard', 'main');
  if (withHandoff && open) {
    // The open handoff on main names real commits, as `handoff new` writes them, so resume asks git what happened since.
    const head = git(dir, 'rev-parse', 'HEAD~3').trim();
    const base = git(dir, 'rev-parse', 'HEAD~12').trim();
    const file = path.join(dir, handoffPath(open.id, open.ms, layout));
    const text = readFileSync(file, 'utf8')
      .replace(/^head: null$/m, `head: "${head}"`)
      .replace(/^base: null$/m, `base: "${base}"`);
    writeFileSync(file, text);
    // The roadmap as the tool renders it, committed with the open handoff; the caches that
    // rendering left are dropped, so the repository starts as a fresh clone would.
    execFileSync(process.execPath, [BIN, 'roadmap'], { cwd: dir, env, stdio: 'ignore' });
    git(dir, 'add', '--', '.handoff');
    git(dir, 'commit', '-q', '--no-verify', '-m', 'open handoff names its commits; the roadmap');
    for (const name of CACHES) rmSync(path.join(dir, '.git', name), { recursive: true, force: true });
  }
  git(dir, 'gc', '-q');
  writeFileSync(path.join(dir, '.git', 'bench-ready'), GENERATION);
  console.error(`generated ${dir} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return dir;
}

/** Whether `dir` holds a repository generated as this version of the bench generates them. */
function ready(dir) {
  const marker = path.join(dir, '.git', 'bench-ready');
  return existsSync(marker) && readFileSync(marker, 'utf8') === GENERATION;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function run(dir, args, input) {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, {
    cwd: dir,
    env,
    input: input ?? '',
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const ms = performance.now() - t;
  if (r.status !== 0 && !(args[1] === 'check' && r.status === 1))
    throw new Error(`${args.slice(1).join(' ')} exited ${r.status} in ${dir}: ${r.stderr}`);
  return ms;
}

const CACHES = [
  'handoff-cache.json',
  'handoff-clean.json',
  'handoff-open.json',
  'handoff-items',
  'handoff-validated',
  'handoff-resume.json',
  'handoff-heads.json',
  'handoff-names.json',
];

/** Runs `fn` with every cache of the tool moved aside, then puts them back: a cold run leaves the other steps warm. */
function cold(dir, fn) {
  const gitDir = path.join(dir, '.git');
  const aside = path.join(gitDir, 'bench-aside');
  rmSync(aside, { recursive: true, force: true });
  mkdirSync(aside);
  for (const name of CACHES)
    if (existsSync(path.join(gitDir, name))) renameSync(path.join(gitDir, name), path.join(aside, name));
  try {
    return fn();
  } finally {
    for (const name of CACHES) {
      rmSync(path.join(gitDir, name), { recursive: true, force: true });
      if (existsSync(path.join(aside, name))) renameSync(path.join(aside, name), path.join(gitDir, name));
    }
    rmSync(aside, { recursive: true, force: true });
  }
}

/**
 * Puts .handoff/ and the index back as committed, after a command that writes, then lets one
 * untimed `resume` see the files put back: the bench rewrote them, not a user, so what the
 * tool does to notice them (after `check`, fifty handoffs reopened) is not charged to the
 * warm command measured next.
 */
function restore(dir) {
  git(dir, 'reset', '-q');
  git(dir, 'checkout', '-q', '--', '.handoff');
  git(dir, 'clean', '-fdq', '--', '.handoff');
  run(dir, [BIN, 'resume']);
  restored = performance.now();
}

/** When restore() last rewrote .handoff/ and the index. */
let restored = -Infinity;
/** The tool's racy window (store/reader.ts RACY_MS): stat data younger than this does not vouch for a file or folder. */
const RACY_MS = 2000;

/**
 * Before a warm session start: lets the racy window of the files restore() rewrote pass, then
 * one untimed `resume` settle the caches. Within that window the tool rightly lists again the
 * folders the checkout touched and reads those files, and the first run after it rewrites the
 * open index: a start right after a checkout pays that once, a user's next sessions never do,
 * and here every warm start followed a restore by well under the window.
 */
function settle(dir) {
  const wait = restored + RACY_MS + 100 - performance.now();
  if (wait <= 0) return;
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait);
  run(dir, [BIN, 'resume']);
  restored = -Infinity;
}

function openFile(dir) {
  const out = JSON.parse(
    execFileSync(process.execPath, [BIN, 'list', '--status', 'open', '--branch', 'main', '--json'], {
      cwd: dir,
      env,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    }),
  );
  return out.handoffs[0].file;
}

const HOOK_INPUT = JSON.stringify({ session_id: 'bench', hook_event_name: 'SessionStart', source: 'startup' });

/** The commands of both issues, interleaved round by round; returns the median of each. */
function measure(dir) {
  restore(dir); // what an interrupted run may have left
  const file = openFile(dir);
  let edits = 0;
  const steps = {
    'node -e 0': () => run(dir, ['-e', '0']),
    'session-start hook, warm': () => {
      settle(dir);
      return run(dir, [BIN, 'hook', 'claude-session-start'], HOOK_INPUT);
    },
    'resume, warm': () => {
      settle(dir);
      return run(dir, [BIN, 'resume']);
    },
    'resume, cold': () => cold(dir, () => run(dir, [BIN, 'resume'])),
    'resume after a pre-commit': () => {
      // The common path: the agent edits the handoff `new` wrote, and commits it.
      writeFileSync(path.join(dir, file), `${readFileSync(path.join(dir, file), 'utf8')}\n- edited ${++edits}\n`);
      git(dir, 'add', '--', file);
      run(dir, [BIN, 'git-hook', 'pre-commit']);
      const ms = run(dir, [BIN, 'resume']);
      restore(dir);
      return ms;
    },
    list: () => run(dir, [BIN, 'list']),
    'new --no-edit': () => {
      const ms = run(dir, [BIN, 'new', 'bench: the next step', '--no-edit']);
      restore(dir);
      return ms;
    },
    check: () => {
      // `check` closes the handoffs that landed (every branch's here): put them back, so the
      // command measured after it sees the history as committed, as every other one does.
      const ms = run(dir, [BIN, 'check']);
      restore(dir);
      return ms;
    },
    'check, nothing to close': () => {
      // The same tree once the landed handoffs are closed (on a team's default branch each
      // merge closes its own, once): what every later `check` there costs.
      run(dir, [BIN, 'check']);
      const ms = run(dir, [BIN, 'check']);
      restore(dir);
      return ms;
    },
    // With --base nothing is closed: the tree stays as committed.
    'check, cold': () => cold(dir, () => run(dir, [BIN, 'check', '--base', 'HEAD~1'])),
  };
  // A warm cache and a warm compile cache, as on a user's second run.
  run(dir, [BIN, 'list']);
  run(dir, [BIN, 'resume']);
  const times = Object.fromEntries(Object.keys(steps).map((k) => [k, []]));
  const names = Object.keys(steps);
  for (let r = 0; r < ROUNDS; r++) {
    // Rotate the order so no command always follows the same one.
    for (const name of [...names.slice(r % names.length), ...names.slice(0, r % names.length)])
      times[name].push(steps[name]());
    run(dir, [BIN, 'resume']); // leave the cache warm for the next round's warm figures
  }
  return Object.fromEntries(names.map((k) => [k, median(times[k])]));
}

/** Bytes of a file, or of a folder and everything in it, as `du -sb` counts them; 0 when it is not there. */
function bytes(file) {
  let st;
  try {
    st = lstatSync(file);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.size;
  return readdirSync(file).reduce((sum, name) => sum + bytes(path.join(file, name)), st.size);
}

/**
 * A bare copy of a generated repository, packed as a repository written one commit at a time is:
 * there every object starts loose, and the first `git gc` searches each one's best delta base (a
 * handoff's own earlier version). `git fast-import` instead stores each blob as a delta against the
 * blob before it in the stream (another handoff, or code), and a plain `git gc` keeps deltas it
 * finds; `repack -a -d -f` searches every object afresh, with git's default window and depth.
 */
function packedCopy(dir) {
  const copy = path.join(opts.scratch, `packed-${path.basename(dir)}.git`);
  const mark = path.join(copy, 'packed');
  if (!existsSync(mark) || readFileSync(mark, 'utf8') !== GENERATION) {
    rmSync(copy, { recursive: true, force: true });
    execFileSync('git', ['clone', '-q', '--bare', '--no-local', dir, copy], { env });
    git(copy, 'repack', '-q', '-a', '-d', '-f');
    writeFileSync(mark, GENERATION);
  }
  return copy;
}

function sizeKiB(dir) {
  const v = git(dir, 'count-objects', '-v');
  return Number(/size-pack: (\d+)/.exec(v)[1]) + Number(/^size: (\d+)/m.exec(v)[1]);
}

function cloneSeconds(dir) {
  const target = path.join(opts.scratch, `clone-${process.pid}`);
  const times = [];
  for (let i = 0; i < Number(opts.clones); i++) {
    rmSync(target, { recursive: true, force: true });
    const t = performance.now();
    execFileSync('git', ['clone', '-q', '--no-local', '--no-checkout', dir, target], { env });
    times.push((performance.now() - t) / 1000);
  }
  rmSync(target, { recursive: true, force: true });
  return median(times);
}

mkdirSync(opts.scratch, { recursive: true });
console.log(
  `${path.relative(process.cwd(), BIN) || BIN}, layout ${LAYOUT}, node ${process.version}, ${os.cpus().length} cores, median of ${ROUNDS} interleaved rounds, seed ${SEED}`,
);
const rows = [];
for (const n of opts['skip-table'] ? [] : SIZES) {
  const dir = repository(n, LAYOUT);
  const m = measure(dir);
  rows.push([n, m]);
  const floor = m['node -e 0'];
  if (rows.length === 1)
    console.log(
      `| handoffs | ${Object.keys(m).slice(1).join(' | ')} |\n|---|${Object.keys(m)
        .slice(1)
        .map(() => '---|')
        .join('')}`,
    );
  console.log(
    `| ${n.toLocaleString('en-US')} | ${Object.entries(m)
      .slice(1)
      .map(([, ms]) => `${(ms / floor).toFixed(1)}x (${ms.toFixed(0)} ms, +${(ms - floor).toFixed(0)})`)
      .join(' | ')} |`,
  );
}
if (rows.length > 0)
  console.log(`node -e 0: ${rows.map(([n, m]) => `${m['node -e 0'].toFixed(1)} ms at ${n}`).join(', ')}`);
if (rows.length > 0) {
  // The caches as the rounds above left them (every command has run), against .handoff/,
  // both counted as `du -sb` counts them: the apparent size of every file and folder.
  console.log('\n| handoffs | caches in the git directory | .handoff/ | ratio | largest |\n|---|---|---|---|---|');
  for (const [n] of rows) {
    const dir = repository(n, LAYOUT);
    const each = CACHES.map((name) => [name, bytes(path.join(dir, '.git', name))]);
    const total = each.reduce((sum, [, b]) => sum + Number(b), 0);
    const handoff = bytes(path.join(dir, '.handoff'));
    const largest = [...each]
      .sort((a, b) => Number(b[1]) - Number(a[1]))
      .slice(0, 3)
      .map(([name, b]) => `${name} ${(Number(b) / 1024).toFixed(0)} KiB`)
      .join(', ');
    console.log(
      `| ${n.toLocaleString('en-US')} | ${(total / 1024).toFixed(0)} KiB | ${(handoff / 1024).toFixed(0)} KiB | ${(total / handoff).toFixed(3)} | ${largest} |`,
    );
  }
}

if (opts['repo-size']) {
  console.log(
    '\n| handoffs | size after gc | without .handoff/ | ratio | clone | without .handoff/ | ratio |\n|---|---|---|---|---|---|---|',
  );
  for (const n of SIZES) {
    const withH = packedCopy(repository(n, LAYOUT));
    const without = packedCopy(repository(n, LAYOUT, false));
    const [a, b] = [sizeKiB(withH), sizeKiB(without)];
    const [ca, cb] = [cloneSeconds(withH), cloneSeconds(without)];
    console.log(
      `| ${n.toLocaleString('en-US')} | ${(a / 1024).toFixed(1)} MB | ${(b / 1024).toFixed(1)} MB | ${(a / b).toFixed(2)} | ${ca.toFixed(2)} s | ${cb.toFixed(2)} s | ${(ca / cb).toFixed(2)} |`,
    );
  }
}

if (opts.big) {
  // A code repository of 100,000 files with 1,000 handoffs: the session start next to `git status`.
  const dir = path.join(opts.scratch, `big-100000-${LAYOUT}`);
  if (!ready(dir)) {
    const small = repository(1000, LAYOUT);
    rmSync(dir, { recursive: true, force: true });
    execFileSync('git', ['clone', '-q', small, dir], { env });
    const stream = path.join(opts.scratch, 'big.fi');
    const fd = openSync(stream, 'w');
    const parent = git(dir, 'rev-parse', 'HEAD').trim();
    writeSync(
      fd,
      `commit refs/heads/main\ncommitter Bench <bench@example.com> ${Math.floor(START / 1000) + 1e7} +0000\ndata 4\nbig\nfrom ${parent}\n`,
    );
    for (let i = 0; i < 100_000; i++) {
      const data = `export const f${i} = ${i};\n`;
      writeSync(
        fd,
        `M 100644 inline lib/d${i % 100}/e${Math.floor(i / 100) % 100}/f${i}.ts\ndata ${data.length}\n${data}\n`,
      );
    }
    closeSync(fd);
    execFileSync('git', ['fast-import', '--quiet', '--force'], {
      cwd: dir,
      env,
      stdio: [openSync(stream, 'r'), 'ignore', 'inherit'],
    });
    rmSync(stream);
    git(dir, 'reset', '-q', '--hard', 'main');
    writeFileSync(path.join(dir, '.git', 'bench-ready'), GENERATION);
  }
  const steps = {
    'node -e 0': () => run(dir, ['-e', '0']),
    'git status': () => {
      const t = performance.now();
      execFileSync('git', ['status', '--porcelain'], { cwd: dir, env, stdio: 'ignore' });
      return performance.now() - t;
    },
    'session-start hook, warm': () => run(dir, [BIN, 'hook', 'claude-session-start'], HOOK_INPUT),
  };
  run(dir, [BIN, 'resume']);
  const times = Object.fromEntries(Object.keys(steps).map((k) => [k, []]));
  for (let r = 0; r < ROUNDS; r++) for (const [k, f] of Object.entries(steps)) times[k].push(f());
  const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
  const floor = m['node -e 0'];
  console.log(
    `\n100,000 files, 1,000 handoffs: git status ${m['git status'].toFixed(0)} ms; session-start hook +${(m['session-start hook, warm'] - floor).toFixed(0)} ms (${m['session-start hook, warm'].toFixed(0)} ms), ${((m['session-start hook, warm'] - floor) / m['git status']).toFixed(2)}x git status`,
  );
}
