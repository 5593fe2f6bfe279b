#!/usr/bin/env node
// @ts-check
// Drafting from a long transcript: throughput and peak RSS of
// `handoff new --from <file>` on a synthetic Claude Code session, next to the floor of a
// bare script that only reads the same file line by line and JSON-parses each line.
// Then, for each real fixture (test/fixtures/transcripts): the draft's
// token count against the transcript's.
//
//   node bench/transcript.js [--mb 100] [--fixtures DIR]
import { execFileSync, spawnSync } from 'node:child_process';
import {
  createWriteStream,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  mkdirSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchEnv } from './env.js';
import { internals } from './internals.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.resolve(here, '../bin/handoff.js');
const { values } = parseArgs({
  options: {
    mb: { type: 'string', default: '100' },
    fixtures: { type: 'string', default: path.resolve(here, '../test/fixtures/transcripts') },
  },
});
const MB = Number(values.mb);

const tmp = mkdtempSync(path.join(os.tmpdir(), 'handoff-bench-'));
const repo = path.join(tmp, 'repo');
mkdirSync(repo);
const env = benchEnv();
const git = (...a) => execFileSync('git', a, { cwd: repo, env });
git('init', '-q', '-b', 'main');
git('commit', '-q', '--allow-empty', '-m', 'init');

async function generate(file, bytes) {
  const out = createWriteStream(file);
  let written = 0;
  let i = 0;
  const filler = 'lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(70);
  const env0 = (type, message, extra = {}) => ({
    parentUuid: null,
    isSidechain: false,
    userType: 'external',
    cwd: repo,
    sessionId: 'bench',
    version: '2.0.64',
    gitBranch: 'main',
    type,
    message,
    uuid: `u-${i}`,
    timestamp: new Date(1763600000000 + i * 1000).toISOString(),
    ...extra,
  });
  while (written < bytes) {
    i++;
    const id = `toolu_${i}`;
    const lines = [
      env0('user', {
        role: 'user',
        content: `Step ${i}: keep going with the parser. Never change the public API of module ${i % 50}.`,
      }),
      env0('assistant', {
        id: `msg_${i}`,
        model: 'claude-sonnet-4-5',
        role: 'assistant',
        content: [
          {
            type: 'text',
            text: `I'll use a streaming reader instead of reading the whole file because sessions can be large (${i}).`,
          },
        ],
        usage: {
          input_tokens: 10,
          cache_creation_input_tokens: 100,
          cache_read_input_tokens: 50000 + (i % 100000),
          output_tokens: 50,
        },
      }),
      env0('assistant', {
        id: `msg_${i}b`,
        model: 'claude-sonnet-4-5',
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id,
            name: i % 3 === 0 ? 'Bash' : 'Edit',
            input:
              i % 3 === 0
                ? { command: 'npm test' }
                : {
                    file_path: path.join(repo, `src/file-${i % 200}.ts`),
                    old_string: filler.slice(0, 600),
                    new_string: filler.slice(0, 650),
                  },
          },
        ],
      }),
      env0(
        'user',
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: id, content: filler + filler, is_error: i % 7 === 0 }],
        },
        { toolUseResult: { stdout: filler } },
      ),
    ];
    if (i % 25 === 0)
      lines.push(
        env0('assistant', {
          id: `msg_${i}c`,
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: `${id}t`,
              name: 'TodoWrite',
              input: {
                todos: [
                  { content: `task ${i}`, status: 'in_progress' },
                  { content: `task ${i + 1}`, status: 'pending' },
                ],
              },
            },
          ],
        }),
      );
    const chunk = lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
    written += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await new Promise((r) => out.once('drain', () => r(undefined)));
  }
  await new Promise((r) => out.end(() => r(undefined)));
  return written;
}

// Peak RSS of a child, reported by the child itself at exit (KiB on Linux).
const RSS_HOOK = `data:text/javascript,process.on('exit',()=>process.stderr.write('MAXRSS '+process.resourceUsage().maxRSS+'\\n'))`;

function timed(args, cwd) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--import', RSS_HOOK, ...args], {
    cwd,
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const rss = Number(/MAXRSS (\d+)/.exec(r.stderr)?.[1] ?? 0) / 1024;
  return { ms, rss, stderr: r.stderr };
}

const FLOOR = `
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
let n = 0;
for await (const line of createInterface({ input: createReadStream(process.argv[2], { encoding: 'utf8', highWaterMark: 1 << 20 }), crlfDelay: Infinity })) { if (line) { JSON.parse(line); n++; } }
console.log(n);
`;

const file = path.join(tmp, 'session.jsonl');
const bytes = await generate(file, MB * 1024 * 1024);
const floorFile = path.join(tmp, 'floor.mjs');
writeFileSync(floorFile, FLOOR);
const mb = bytes / 1024 / 1024;
console.log(`synthetic Claude Code transcript: ${mb.toFixed(1)} MB`);
const floor = timed([floorFile, file], tmp);
const draft = timed([BIN, 'new', 'bench goal', '--from', file, '--no-edit'], repo);
console.log(
  `floor  (readline + JSON.parse): ${(floor.ms / 1000).toFixed(2)} s, ${(mb / (floor.ms / 1000)).toFixed(0)} MB/s, peak RSS ${floor.rss.toFixed(0)} MB`,
);
console.log(
  `handoff new --from <file>:      ${(draft.ms / 1000).toFixed(2)} s, ${(mb / (draft.ms / 1000)).toFixed(0)} MB/s, peak RSS ${draft.rss.toFixed(0)} MB`,
);
console.log(`ratio: ${(draft.ms / floor.ms).toFixed(2)}x the floor (target within 3x, peak RSS under 200 MB)`);
rmSync(file);

// Per real fixture: tokens of the draft against tokens of the transcript.
try {
  const [{ estimateTokens: count }] = await internals('transcripts/tokens.ts');
  console.log('\nfixture: transcript tokens -> draft tokens (estimated, src/transcripts/tokens.ts)');
  for (const agent of readdirSync(values.fixtures).sort()) {
    const dir = path.join(values.fixtures, agent);
    if (!statSync(dir).isDirectory()) continue;
    for (const f of readdirSync(dir).sort()) {
      rmSync(path.join(repo, '.handoff'), { recursive: true, force: true });
      const r = spawnSync(
        process.execPath,
        [BIN, 'new', 'carry on', '--from', path.join(dir, f), '--no-edit', '--force'],
        { cwd: repo, env, encoding: 'utf8' },
      );
      if (r.status !== 0) {
        console.log(`${agent}/${f}: failed: ${r.stderr.trim()}`);
        continue;
      }
      const handoffs = path.join(repo, '.handoff', 'handoffs');
      const draftText = readFileSync(path.join(handoffs, readdirSync(handoffs)[0]), 'utf8');
      const t = count(readFileSync(path.join(dir, f), 'utf8'));
      const d = count(draftText);
      console.log(
        `${agent}/${f}: ${t.toLocaleString('en-US')} -> ${d.toLocaleString('en-US')} (${((d / t) * 100).toFixed(1)}%)`,
      );
    }
  }
} catch (e) {
  console.log(`fixtures skipped: ${e.message}`);
}
rmSync(tmp, { recursive: true, force: true });
