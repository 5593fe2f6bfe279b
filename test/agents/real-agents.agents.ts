// `npm run test:agents`: the five agents' pinned releases, run headless against the scripted
// model server on 127.0.0.1 in a scratch repository after `handoff agent install <agent>`.
// Per agent: the pin reaches the model verbatim at session start (no handoff open), the
// transcript drafts a handoff with the todos, the file written, the test run and the
// user's constraint, every record of it is known, and one compaction writes exactly one
// handoff after which the pin reaches the model again, and the agent's own summary of that
// compaction is folded into its handoff where our hook can steer the summarizer. Opt-in: it installs the agents
// (about 500 MB) into a cache directory; an agent that cannot be installed or run is
// skipped with the reason. HANDOFF_AGENTS_RECORD=1 copies each transcript into the fixtures.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openTranscript } from '../../src/transcripts/open.js';
import { DRIVERS, PROMPT, type Driver } from './drivers.js';
import { binOf, CACHE, makeWorld, PIN, type World } from './harness.js';
import { recordFixture } from './record.js';

const results: Array<Record<string, unknown>> = [];

/** Installs the pinned releases into the cache once; answers why an agent cannot run, if it cannot. */
function prepare(wanted: Driver[]): Map<string, string> {
  const why = new Map<string, string>();
  const missing = wanted.filter((d) => !existsSync(binOf(d)));
  if (missing.length > 0 && process.env.HANDOFF_AGENTS_NO_INSTALL !== '1') {
    mkdirSync(CACHE, { recursive: true });
    try {
      // OpenCode loads a project plugin only once its plugin SDK is installed (see below).
      const pkgs = [
        ...missing.map((d) => `${d.pkg}@${d.version}`),
        ...(missing.some((d) => d.agent === 'opencode') ? ['@opencode-ai/plugin@1.18.33'] : []),
      ];
      execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', CACHE, ...pkgs], {
        stdio: 'inherit',
        timeout: 900_000,
      });
      // npm 11 runs no postinstall without approval: Claude Code's native binary is set up by hand.
      const claude = path.join(CACHE, 'node_modules/@anthropic-ai/claude-code/install.cjs');
      if (existsSync(claude)) execFileSync(process.execPath, [claude], { cwd: CACHE, stdio: 'inherit' });
    } catch (error) {
      for (const d of missing)
        why.set(
          d.agent,
          `npm install of ${d.pkg}@${d.version} into ${CACHE} failed: ${(error as Error).message.split('\n')[0]}`,
        );
    }
  }
  for (const d of wanted) {
    if (why.has(d.agent)) continue;
    if (!existsSync(binOf(d))) {
      why.set(d.agent, `${binOf(d)} is absent (HANDOFF_AGENTS_NO_INSTALL=1, or the install failed)`);
      continue;
    }
    try {
      const r = spawnSync(binOf(d), ['--version'], {
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, HOME: CACHE },
      });
      const v = `${r.stdout}${r.stderr}`;
      if (!v.includes(d.version)) why.set(d.agent, `${d.bin} --version says ${v.trim()}, not ${d.version}`);
    } catch (error) {
      why.set(d.agent, `${d.bin} --version failed: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  return why;
}

const only = process.env.HANDOFF_AGENTS_ONLY?.split(',');
const skip = only ? DRIVERS.filter((d) => !only.includes(d.agent)) : [];
const why = prepare(DRIVERS.filter((d) => !skip.includes(d)));
for (const d of skip) why.set(d.agent, 'not in HANDOFF_AGENTS_ONLY');
for (const [agent, reason] of why) console.warn(`test:agents: skipping ${agent}: ${reason}`);

/** The pin, as it appears in a request body serialised by JSON. */
const PIN_JSON = JSON.stringify(PIN).slice(1, -1);
const pinIn = (w: World, from = 0) =>
  w.server.requests.slice(from).filter((r) => JSON.stringify(r.body).includes(PIN_JSON)).length;
const handoffs = (w: World) =>
  JSON.parse(w.handoff(['list', '--json']).stdout).handoffs as Array<{ id: string; goal: string; file: string }>;

async function unknownRecords(file: string): Promise<number> {
  const opened = await openTranscript(file, file, undefined);
  for await (const _ of opened.events());
  return opened.stats.unknown;
}

/** How each agent is made to compact once: manually where it can be asked, else by reported usage. */
async function compactOnce(d: Driver, w: World, session: string | undefined): Promise<{ ran: boolean; note: string }> {
  switch (d.agent) {
    case 'claude': {
      if (!session) return { ran: false, note: 'no session id' };
      const r = await w.run('/compact', { resume: session });
      return { ran: r.code === 0, note: `claude -p /compact --resume: exit ${r.code}` };
    }
    case 'codex': {
      w.server.setUsage(900_000, 1);
      const r = await w.run('Go on.', { compactAt: 10_000, ...(session ? { resume: session } : {}) });
      return { ran: r.code === 0, note: `codex exec resume with model_auto_compact_token_limit: exit ${r.code}` };
    }
    case 'gemini': {
      w.server.setUsage(600_000, 1);
      const r = await w.run('Go on.', session ? { resume: session } : {});
      return { ran: r.code === 0, note: `gemini with 600,000 prompt tokens reported once: exit ${r.code}` };
    }
    case 'pi':
    case 'opencode': {
      // pi checks for compaction when a turn ends: the whole turn reports a nearly full window;
      // OpenCode after every step, and would compact again and again: one reply does.
      if (d.agent === 'pi') w.server.setUsage(199_000);
      else w.server.setUsage(199_000, 1);
      const r = await w.run('Go on.', session ? { resume: session } : {});
      w.server.setUsage(1200);
      const next = await w.run('Go on.', session ? { resume: session } : {});
      return {
        ran: r.code === 0 && next.code === 0,
        note: `${d.bin} with 199,000 of 200,000 tokens reported for one turn, then one more turn: exit ${r.code}, ${next.code}`,
      };
    }
  }
}

/**
 * Whether the agent's compaction summary reached the compaction's handoff, after one more
 * session of the agent (its session-start hook harvests a summary that is due): "folded",
 * or why not (the warning our hook printed, or that no summary was read).
 */
async function harvested(d: Driver, w: World): Promise<string> {
  const newest = handoffs(w)[0];
  if (!newest) return 'no compaction handoff';
  const folded = () => readFileSync(path.join(w.repo.dir, newest.file), 'utf8').includes(`(summary of ${d.title}`);
  if (folded()) return 'folded';
  // The compacted session's transcript: the run below starts a newer one.
  const transcript = d.transcript(w.home, w.repo.dir);
  const next = await w.run('Go on.');
  if (folded()) return 'folded';
  const warning = /handoff: warning: [^\n]*?keeps the draft from the rules/.exec(`${next.stderr}\n${next.stdout}`)?.[0];
  if (warning) return warning;
  // Why not, from the transcript: no summary there, or one without the handoff's sections.
  const found: string[] = [];
  try {
    const opened = transcript ? await openTranscript(transcript, transcript, w.repo.dir) : undefined;
    for await (const e of opened?.events() ?? []) if (e.kind === 'compaction' && e.summary) found.push(e.summary);
  } catch (error) {
    return `not folded; the compacted session's transcript cannot be read now: ${(error as Error).message}`;
  }
  if (found.length === 0) return `not folded: no summary in the transcript (exit ${next.code})`;
  const { parseSummary } = await import('../../src/handoff/summary-form.js');
  return `not folded: the summary read has ${parseSummary(found.at(-1)!).items} items in the handoff's sections (its summarizer was not asked for them)`;
}

function sessionOf(d: Driver, transcript: string | undefined, stdout: string): string | undefined {
  if (!transcript) return undefined;
  if (d.agent === 'claude') return path.basename(transcript, '.jsonl');
  if (d.agent === 'codex')
    return /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/.exec(transcript)?.[1];
  if (d.agent === 'gemini') return 'latest';
  if (d.agent === 'pi') return transcript;
  return /"sessionID":"(ses_[A-Za-z0-9]+)"/.exec(stdout)?.[1] ?? /(ses_[A-Za-z0-9]+)/.exec(stdout)?.[1];
}

describe('the real agents', () => {
  afterAll(() => {
    if (results.length === 0) return;
    console.log(`test:agents results\n${results.map((r) => JSON.stringify(r)).join('\n')}`);
    if (process.env.HANDOFF_AGENTS_RESULTS)
      writeFileSync(process.env.HANDOFF_AGENTS_RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  });

  for (const d of DRIVERS) {
    const reason = why.get(d.agent);
    (reason ? it.skip : it)(`${d.title} ${d.version}${reason ? ` (skipped: ${reason})` : ''}`, async () => {
      const w = await makeWorld(d);
      const checks: Record<string, boolean> = {};
      const check = (name: string, ok: boolean) => {
        checks[name] = ok;
        expect.soft(ok, name).toBe(true);
      };
      try {
        if (d.agent === 'opencode') {
          // OpenCode installs its plugin SDK before it loads a project plugin; offline that never ends.
          for (const dir of [
            path.join(w.home, '.config/opencode/node_modules/@opencode-ai'),
            path.join(w.repo.dir, '.opencode/node_modules/@opencode-ai'),
          ]) {
            mkdirSync(dir, { recursive: true });
            cpSync(path.join(CACHE, 'node_modules/@opencode-ai/plugin'), path.join(dir, 'plugin'), { recursive: true });
          }
        }
        const context = w.handoff(['hook', `${d.agent}-session-start`]);
        const injected = context.stdout.trim()
          ? (JSON.parse(context.stdout).hookSpecificOutput?.additionalContext ?? '').length
          : 0;
        const first = await w.run(PROMPT);
        check('the agent ran (exit 0)', first.code === 0);
        check('the pin reached the model verbatim at session start, no handoff open', pinIn(w) > 0);
        // Gemini CLI fires PreCompress before every model call: no compaction, no handoff.
        check('a session without compaction wrote no handoff', handoffs(w).length === 0);
        const transcript = d.transcript(w.home, w.repo.dir);
        check('the agent wrote a transcript', transcript !== undefined);
        const unknown = transcript ? await unknownRecords(transcript) : -1;
        check('every record of the transcript is known', unknown === 0);
        if (transcript && process.env.HANDOFF_AGENTS_RECORD === '1') {
          const names: Record<string, [string, string]> = {
            claude: ['claude-code', `claude-code-${d.version}-sum.jsonl`],
            codex: ['codex', `rollout-codex-${d.version}-sum.jsonl`],
            gemini: ['gemini-cli', `session-gemini-${d.version}-sum.jsonl`],
            pi: ['pi', `pi-${d.version}-sum.jsonl`],
            opencode: ['opencode', `opencode-${d.version}-sum.db`],
          };
          const [dir, name] = names[d.agent]!;
          await recordFixture(dir, transcript, name, w.home, w.repo.dir);
        }
        const drafted = transcript
          ? w.handoff(['new', 'Finish the sum helper', '--from', transcript, '--no-edit'])
          : undefined;
        const body = drafted?.code === 0 ? readFileSync(path.join(w.repo.dir, handoffs(w)[0]!.file), 'utf8') : '';
        // pi has no todo tool.
        check(
          'the draft has the todos',
          d.agent === 'pi' || /- Write src\/sum\.js[^\n]*\(todo, transcript line \d+\)/.test(body),
        );
        check('the draft has the file written', body.includes('`src/sum.js`'));
        check('the draft has the test command', /- `npm test`: passed/.test(body));
        check("the draft has the user's constraint", body.includes('"Never touch the generated/ folder."'));
        // Compaction: exactly one handoff, and the pin reaches the model again afterwards.
        const before = handoffs(w).length;
        const mark = w.server.requests.length;
        const session = sessionOf(d, transcript, first.stdout);
        const compacted = await compactOnce(d, w, session);
        const after = handoffs(w).length;
        check('one compaction wrote exactly one handoff', after - before === 1);
        check('the pin reached the model after compaction', pinIn(w, mark) > 0);
        // The agent's own summary: the next session start folds it into the compaction's handoff.
        const summaryNote = await harvested(d, w);
        // Claude Code and OpenCode let our hook ask their summarizer for the sections; the others cannot be asked.
        if (d.agent === 'claude' || d.agent === 'opencode')
          check("the agent's summary was folded into the compaction's handoff", summaryNote === 'folded');
        results.push({
          agent: d.title,
          version: d.version,
          checks: `${Object.values(checks).filter(Boolean).length}/${Object.keys(checks).length}`,
          failed: Object.keys(checks).filter((k) => !checks[k]),
          ms: first.ms,
          injectedChars: injected,
          unknownRecords: unknown,
          handoffsFromCompaction: after - before,
          summaryHarvested: summaryNote,
          compaction: compacted.note,
          requests: w.server.requests.length,
        });
      } finally {
        if (process.env.HANDOFF_AGENTS_KEEP) console.log(`${d.agent}: kept ${w.home} and ${w.repo.dir}`);
        else rmSync(w.home, { recursive: true, force: true });
        await w.close();
      }
    });
  }
});
