// @ts-check
// Two builds side by side, each in its own copy of a generated team repository (bench/team.js
// makes them), the builds alternated round by round: `check` (the check that closes the
// landed handoffs, then the one right after it with nothing to close) and `new --no-edit`,
// each followed by the history put back as committed and one `resume` that sees it, as
// team.js does; `committed` is `new --no-edit` once the open handoff was edited and went
// through the pre-commit hook (then put back, and the tool's racy window waited out), as
// after the commit an agent makes: the common path, where `new` also records the tree it
// leaves for the next pre-commit hook (git-hooks/validated.ts). Prints for each the median wall time, the CPU of node and of the git it
// waited for together, and node's own CPU (an exit hook asks it). Prints figures; asserts nothing.
//
//   node bench/ab.js --a <bin> --a-repo <dir> --b <bin> --b-repo <dir> [--steps check,new,committed] [--rounds 9]
//
//   --a, --b            the handoff launchers to compare (bin/handoff.js of two worktrees)
//   --a-repo, --b-repo  a copy of a generated repository for each (never the same one)
//   --steps             what to measure: check, new, committed (default check,new)
//   --rounds            rounds, the median printed (default 9)
//
// Run it with the node the figures are for (Node 24 for users); it needs /usr/bin/time.
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchEnv } from './env.js';

const { values: opts } = parseArgs({
  options: {
    a: { type: 'string' },
    'a-repo': { type: 'string' },
    b: { type: 'string' },
    'b-repo': { type: 'string' },
    steps: { type: 'string', default: 'check,new' },
    rounds: { type: 'string', default: '9' },
    help: { type: 'boolean', default: false },
  },
});
/** @type {Record<string, Array<[string, string[]]>>} Each step's timed commands, run one after another; the history is put back after the last. */
const STEPS = {
  check: [
    ['check', ['check']],
    ['check, nothing to close', ['check']],
  ],
  new: [['new --no-edit', ['new', 'bench: the next step', '--no-edit']]],
  committed: [['new --no-edit, after a commit', ['new', 'bench: the next step', '--no-edit']]],
};
/** @type {Record<string, (dir: string, bin: string) => void>} What a step's first command follows, untimed. */
const BEFORE = {
  committed: (dir, bin) => {
    const listed = spawnSync(process.execPath, [bin, 'list', '--status', 'open', '--branch', 'main', '--json'], {
      cwd: dir,
      env,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    const file = JSON.parse(listed.stdout).handoffs[0].file;
    appendFileSync(path.join(dir, file), `\n- edited ${Date.now()}\n`);
    execFileSync('git', ['add', '--', file], { cwd: dir, env });
    run(dir, bin, ['git-hook', 'pre-commit']);
    restore(dir, bin);
    // The tool's racy window (store/reader.ts RACY_MS) over the files put back, as in team.js settle().
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2100);
    run(dir, bin, ['resume']);
  },
};
const steps = (opts.steps ?? '').split(',');
if (opts.help || !opts.a || !opts.b || !opts['a-repo'] || !opts['b-repo'] || !steps.every((s) => s in STEPS)) {
  console.log(
    readFileSync(fileURLToPath(import.meta.url), 'utf8')
      .split('\n')
      .slice(1, 20)
      .join('\n'),
  );
  process.exit(opts.help ? 0 : 2);
}
const env = benchEnv();
const builds = [
  { name: 'a', bin: path.resolve(opts.a), dir: path.resolve(opts['a-repo']) },
  { name: 'b', bin: path.resolve(opts.b), dir: path.resolve(opts['b-repo']) },
];
const CPU_HOOK =
  'data:text/javascript,process.on("exit",()=>{const u=process.cpuUsage();process.stderr.write("\\nnode-cpu "+(u.user+u.system)/1000+"\\n")})';

/** @param {string} dir @param {string} bin @param {string[]} args */
function run(dir, bin, args) {
  const r = spawnSync('/usr/bin/time', ['-f', 'time %e %U %S', process.execPath, '--import', CPU_HOOK, bin, ...args], {
    cwd: dir,
    env,
    input: '',
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const t = /time (\S+) (\S+) (\S+)/.exec(r.stderr);
  const c = /node-cpu (\S+)/.exec(r.stderr);
  // `check` exits 1 when it finds something to say.
  if (!t || !c || !(r.status === 0 || (r.status === 1 && args[0] === 'check' && r.stderr.includes('handoff: check'))))
    throw new Error(`${args.join(' ')} failed in ${dir}: ${r.stderr}`);
  return { wall: Number(t[1]) * 1000, cpu: (Number(t[2]) + Number(t[3])) * 1000, node: Number(c[1]) };
}

/** @param {string} dir @param {string} bin */
function restore(dir, bin) {
  for (const args of [
    ['reset', '-q'],
    ['checkout', '-q', '--', '.handoff'],
    ['clean', '-fdq', '--', '.handoff'],
  ])
    execFileSync('git', args, { cwd: dir, env });
  run(dir, bin, ['resume']);
}

/** @type {Record<string, Record<string, Array<{ wall: number; cpu: number; node: number }>>>} */
const times = {};
const timed = steps.flatMap((s) => STEPS[s] ?? []);
for (const b of builds) {
  restore(b.dir, b.bin);
  run(b.dir, b.bin, ['list']); // a warm cache, as on a user's second run
  run(b.dir, b.bin, ['resume']);
  times[b.name] = Object.fromEntries(timed.map(([name]) => [name, []]));
}
for (let r = 0; r < Number(opts.rounds); r++)
  for (const b of r % 2 ? [...builds].reverse() : builds)
    for (const step of steps) {
      BEFORE[step]?.(b.dir, b.bin);
      for (const [name, args] of STEPS[step] ?? []) times[b.name]?.[name]?.push(run(b.dir, b.bin, args));
      restore(b.dir, b.bin);
    }
/** @param {number[]} xs */
const median = (xs) => [...xs].sort((x, y) => x - y)[(xs.length - 1) >> 1] ?? Number.NaN;
for (const [name] of timed)
  for (const b of builds) {
    const xs = times[b.name]?.[name] ?? [];
    const m = (/** @type {'wall' | 'cpu' | 'node'} */ k) => Math.round(median(xs.map((x) => x[k])));
    console.log(
      `${name.padEnd(24)} ${b.name}: wall ${m('wall')} ms, cpu (node and git) ${m('cpu')} ms, node cpu ${m('node')} ms`,
    );
  }
