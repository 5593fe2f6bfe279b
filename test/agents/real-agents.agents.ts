// `npm run test:agents`: the nine agents' pinned releases (pi's old and new package both),
// run headless against the scripted model server on 127.0.0.1 in a scratch repository
// after `handoff agent install <agent>`. Per agent: the pin reaches the model verbatim at
// session start (no handoff open), the transcript drafts a handoff with the todos, the
// file written, the test run and the user's constraint, every record of it is known, one
// compaction writes exactly one handoff after which the pin reaches the model again, the
// agent's own summary is read from its transcript and folded into the compaction's
// handoff (in the sections our hook asks its summarizer for, or from its prose), and /handoff expands. Opt-in: it
// installs the agents (about 1 GB) into a cache directory; an agent that cannot be
// installed or run is skipped with the reason. HANDOFF_AGENTS_RECORD=1 copies each
// transcript into the fixtures.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openTranscript } from '../../src/transcripts/open.js';
import { openCodeDbSessions } from '../../src/transcripts/opencode-db.js';
import { PROMPT, type Driver } from './drivers.js';
import { AGENTS_NODE, ALL_DRIVERS, binOf, CACHE, command, idOf, makeWorld, PIN, type World } from './harness.js';
import { agentDone, compactOnce, prepareWorld, sessionOf, SLASH_EXPANDS } from './compact.js';
import { recordFixture } from './record.js';
import { NEEDS_SQLITE, sqlite } from '../sqlite.js';

/** Unpacks a package's npm tarball into the cache's node_modules (its own dependencies are not all installable). */
function unpack(d: Driver): void {
  const packs = path.join(CACHE, 'packs');
  mkdirSync(packs, { recursive: true });
  const tgz = execFileSync('npm', ['pack', '--silent', '--pack-destination', packs, `${d.pkg}@${d.version}`], {
    encoding: 'utf8',
    timeout: 300_000,
  })
    .trim()
    .split('\n')
    .pop()!;
  const dir = path.join(CACHE, 'node_modules', d.pkg);
  mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['xzf', path.join(packs, tgz), '-C', dir, '--strip-components=1']);
}

const results: Array<Record<string, unknown>> = [];

/** Installs the pinned releases into the cache once; answers why an agent cannot run, if it cannot. */
function prepare(wanted: Driver[]): Map<string, string> {
  const why = new Map<string, string>();
  for (const d of wanted)
    if (d.node22 && !AGENTS_NODE) why.set(idOf(d), 'needs Node 22 or later: set HANDOFF_AGENTS_NODE');
  // handoff reads their databases through node:sqlite, in this process and in its own.
  for (const d of wanted) if ((d.agent === 'opencode' || d.agent === 'kilo') && !sqlite) why.set(idOf(d), NEEDS_SQLITE);
  const missing = wanted.filter((d) => !existsSync(binOf(d)) && !why.has(idOf(d)));
  if (missing.length > 0 && process.env.HANDOFF_AGENTS_NO_INSTALL !== '1') {
    mkdirSync(CACHE, { recursive: true });
    try {
      // OpenCode and Kilo load a project plugin only once their plugin SDK is installed (see compact.ts).
      const pkgs = [
        ...missing.flatMap((d) => (d.pack ? d.pack : [`${d.pkg}@${d.version}`])),
        ...missing.flatMap((d) => d.extras ?? []),
        ...(missing.some((d) => d.agent === 'opencode') ? ['@opencode-ai/plugin@1.18.33'] : []),
      ];
      execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', CACHE, ...pkgs], {
        stdio: 'inherit',
        timeout: 900_000,
      });
      // After the install, which would prune a package it did not install itself.
      for (const d of missing) if (d.pack) unpack(d);
      // npm 11 runs no postinstall without approval: Claude Code's native binary is set up by hand.
      const claude = path.join(CACHE, 'node_modules/@anthropic-ai/claude-code/install.cjs');
      if (existsSync(claude)) execFileSync(process.execPath, [claude], { cwd: CACHE, stdio: 'inherit' });
    } catch (error) {
      for (const d of missing)
        why.set(
          idOf(d),
          `npm install of ${d.pkg}@${d.version} into ${CACHE} failed: ${(error as Error).message.split('\n')[0]}`,
        );
    }
  }
  for (const d of wanted) {
    if (why.has(idOf(d))) continue;
    if (!existsSync(binOf(d))) {
      why.set(idOf(d), `${binOf(d)} is absent (HANDOFF_AGENTS_NO_INSTALL=1, or the install failed)`);
      continue;
    }
    try {
      const [program, args] = command(d, ['--version']);
      const r = spawnSync(program, args, {
        encoding: 'utf8',
        timeout: 60_000,
        env: {
          ...process.env,
          HOME: CACHE,
          ...(d.node22 && AGENTS_NODE ? { PATH: `${path.dirname(AGENTS_NODE)}:${process.env.PATH}` } : {}),
        },
      });
      const v = `${r.stdout}${r.stderr}`;
      if (!v.includes(d.version)) why.set(idOf(d), `${d.bin} --version says ${v.trim()}, not ${d.version}`);
    } catch (error) {
      why.set(idOf(d), `${d.bin} --version failed: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  return why;
}

const only = process.env.HANDOFF_AGENTS_ONLY?.split(',');
const skip = only ? ALL_DRIVERS.filter((d) => !only.includes(idOf(d))) : [];
const why = prepare(ALL_DRIVERS.filter((d) => !skip.includes(d)));
for (const d of skip) why.set(idOf(d), 'not in HANDOFF_AGENTS_ONLY');
for (const [agent, reason] of why) console.warn(`test:agents: skipping ${agent}: ${reason}`);

/** The pin, as it appears in a request body serialised by JSON. */
const PIN_JSON = JSON.stringify(PIN).slice(1, -1);
const pinIn = (w: World, from = 0, to?: number) =>
  w.server.requests.slice(from, to).filter((r) => JSON.stringify(r.body).includes(PIN_JSON)).length;
const handoffs = (w: World) =>
  JSON.parse(w.handoff(['list', '--json']).stdout).handoffs as Array<{ id: string; goal: string; file: string }>;

async function unknownRecords(file: string): Promise<number> {
  const opened = await openTranscript(file, file, undefined);
  for await (const _ of opened.events());
  return opened.stats.unknown;
}

/** The summaries the agent's own compactions left in its transcript, as the reader yields them. */
async function summaries(file: string): Promise<string[]> {
  // OpenCode and Kilo start a new session per run: every session in the database.
  const ids = file.endsWith('.db') ? (await openCodeDbSessions(file)).map((s) => s.id) : [undefined];
  const out: string[] = [];
  for (const id of ids) {
    const opened = await openTranscript(file, file, undefined, id);
    for await (const e of opened.events()) if (e.kind === 'compaction' && e.summary) out.push(e.summary);
  }
  return out;
}

/**
 * Whether the agent's compaction summary reached the compaction's handoff, after one more
 * session of the agent (its session-start hook harvests a summary that is due): "folded",
 * or why not (the warning our hook printed, or that no summary was read).
 */
async function harvestNote(d: Driver, w: World): Promise<string> {
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
  const { withProse } = await import('../../src/handoff/summary-prose.js');
  const { summary, fromProse } = withProse(parseSummary(found.at(-1)!));
  return `not folded: the summary read has ${summary.items - fromProse} items in the handoff's sections and ${fromProse} in its prose`;
}

const FIXTURE_NAMES: Record<string, (v: string) => [string, string]> = {
  claude: (v) => ['claude-code', `claude-code-${v}-sum.jsonl`],
  codex: (v) => ['codex', `rollout-codex-${v}-sum.jsonl`],
  gemini: (v) => ['gemini-cli', `session-gemini-${v}-sum.jsonl`],
  pi: (v) => ['pi', `pi-${v}-sum.jsonl`],
  pi1: (v) => ['pi', `pi-${v}-sum.jsonl`],
  opencode: (v) => ['opencode', `opencode-${v}-sum.db`],
  copilot: (v) => ['copilot', `copilot-${v}-sum.events.jsonl`],
  cline: (v) => ['cline', `cline-${v}-sum.messages.json`],
  kilo: (v) => ['kilo', `kilo-${v}-sum.db`],
  qwen: (v) => ['qwen', `qwen-${v}-sum.jsonl`],
};

describe('the real agents', () => {
  afterAll(() => {
    if (results.length === 0) return;
    console.log(`test:agents results\n${results.map((r) => JSON.stringify(r)).join('\n')}`);
    if (process.env.HANDOFF_AGENTS_RESULTS)
      writeFileSync(process.env.HANDOFF_AGENTS_RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  });

  for (const d of ALL_DRIVERS) {
    const id = idOf(d);
    const reason = why.get(id);
    (reason ? it.skip : it)(`${d.title} ${d.version}${reason ? ` (skipped: ${reason})` : ''}`, async () => {
      const started = Date.now();
      const w = await makeWorld(d);
      const checks: Record<string, boolean> = {};
      const check = (name: string, ok: boolean) => {
        checks[name] = ok;
        expect.soft(ok, name).toBe(true);
      };
      try {
        prepareWorld(d, w);
        const context = w.handoff(['hook', `${d.agent === 'cline' ? 'cline-task' : d.agent}-session-start`]);
        const answer = context.stdout.trim() ? JSON.parse(context.stdout) : {};
        const hookText: string = answer.hookSpecificOutput?.additionalContext ?? answer.additionalContext ?? '';
        const first = await w.run(PROMPT);
        check('the agent ran (exit 0)', first.code === 0);
        check('the pin reached the model verbatim at session start, no handoff open', pinIn(w) > 0);
        // The hook's own text (its first line), apart from any instruction file: Cline has no way in for it.
        const hookLine = hookText.split('\n').find((l) => l.trim().length > 20) ?? '';
        const hookDelivered =
          hookLine !== '' && w.server.requests.some((r) => r.raw.includes(JSON.stringify(hookLine).slice(1, -1)));
        if (d.agent !== 'cline') check("the session-start hook's context reached the model", hookDelivered);
        // Gemini CLI fires PreCompress before every model call: no compaction, no handoff.
        check('a session without compaction wrote no handoff', handoffs(w).length === 0);
        const transcript = d.transcript(w.home, w.repo.dir);
        check('the agent wrote a transcript', transcript !== undefined);
        const unknown = transcript ? await unknownRecords(transcript) : -1;
        check('every record of the transcript is known', unknown === 0);
        const drafted = transcript
          ? w.handoff(['new', 'Finish the sum helper', '--from', transcript, '--no-edit'])
          : undefined;
        const body = drafted?.code === 0 ? readFileSync(path.join(w.repo.dir, handoffs(w)[0]!.file), 'utf8') : '';
        // pi, Copilot CLI and Cline offer no todo tool, nor Qwen Code headless.
        check(
          'the draft has the todos',
          ['pi', 'copilot', 'cline', 'qwen'].includes(d.agent) ||
            /- Write src\/sum\.js[^\n]*\(todo, transcript line \d+\)/.test(body),
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
        const from = compacted.after || mark;
        const final = d.transcript(w.home, w.repo.dir);
        const harvested = final && compacted.ran ? await summaries(final) : [];
        if (d.agent !== 'cline') {
          check('one compaction wrote exactly one handoff', after - before === 1);
          check('the pin reached the model after compaction', pinIn(w, from) > 0);
          check("the agent's compaction summary was read from its transcript", harvested.length > 0);
        }
        if (final && process.env.HANDOFF_AGENTS_RECORD === '1') {
          const [dir, name] = FIXTURE_NAMES[id]!(d.version);
          await recordFixture(dir, final, name, w.home, w.repo.dir);
        }
        // /handoff: the command's text, with the goal in it, reaches the model.
        const slashMark = w.server.requests.length;
        const slash = await w.run(
          d.agent === 'kilo' || d.agent === 'opencode' ? 'Finish the sum helper' : '/handoff Finish the sum helper',
          {
            ...(d.agent === 'kilo' || d.agent === 'opencode' ? { command: 'handoff' } : {}),
          },
        );
        const expanded = w.server.requests
          .slice(slashMark)
          .some((r) => r.raw.includes('--from auto --no-edit') && r.raw.includes('Finish the sum helper'));
        if (SLASH_EXPANDS.has(id)) check('/handoff expanded to the handoff command', slash.code === 0 && expanded);
        // The agent's own summary: the next session start folds it into the compaction's handoff.
        const summaryNote = await harvestNote(d, w);
        // Claude Code, OpenCode, Kilo and Qwen Code let our hook ask their summarizer for the
        // sections; the others' summaries in prose are read through the sentence classifier.
        // Cline cannot be made to compact headless.
        if (d.agent !== 'cline')
          check("the agent's summary was folded into the compaction's handoff", summaryNote === 'folded');
        results.push({
          agent: d.title,
          version: d.version,
          checks: `${Object.values(checks).filter(Boolean).length}/${Object.keys(checks).length}`,
          failed: Object.keys(checks).filter((k) => !checks[k]),
          ms: first.ms,
          totalMs: Date.now() - started,
          sessionStartPin: pinIn(w, 0, mark) > 0,
          hookContextDelivered: hookDelivered,
          injectedChars: hookText.length,
          unknownRecords: unknown,
          handoffsFromCompaction: after - before,
          summaryHarvested: summaryNote,
          pinAfterCompaction: pinIn(w, from, slashMark) > 0,
          summariesRead: harvested.length,
          slashExpanded: expanded,
          compaction: compacted.note,
          requests: w.server.requests.length,
        });
      } finally {
        await agentDone(d, w);
        if (process.env.HANDOFF_AGENTS_KEEP) console.log(`${id}: kept ${w.home} and ${w.repo.dir}`);
        else rmSync(w.home, { recursive: true, force: true });
        await w.close();
      }
    });
  }
});
