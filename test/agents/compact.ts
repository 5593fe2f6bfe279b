// Per agent, what the end-to-end checks cannot say in one line: how it is made to compact
// once (asked where it can be asked, else by reported usage), which session a later run
// continues, what must be in place before it runs, and what it leaves running after.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Driver } from './drivers.js';
import { CACHE, idOf, type World } from './harness.js';
import { PI1_WINDOW } from './more-drivers.js';

export interface Compacted {
  ran: boolean;
  note: string;
  /** Requests from here on come after the compaction (a later turn, not the summarizer's). */
  after: number;
}

/** Agents whose /handoff expands headless (Copilot CLI sends a skill name to the model as typed; Gemini CLI 0.61 -p did not expand it). */
export const SLASH_EXPANDS = new Set(['claude', 'opencode', 'pi', 'pi1', 'cline', 'kilo', 'qwen']);

export async function compactOnce(d: Driver, w: World, session: string | undefined): Promise<Compacted> {
  const resume = session ? { resume: session } : {};
  switch (idOf(d)) {
    case 'claude': {
      if (!session) return { ran: false, note: 'no session id', after: w.server.requests.length };
      const r = await w.run('/compact', { resume: session });
      return { ran: r.code === 0, note: `claude -p /compact --resume: exit ${r.code}`, after: 0 };
    }
    case 'codex': {
      w.server.setUsage(900_000, 1);
      const r = await w.run('Go on.', { compactAt: 10_000, ...resume });
      return {
        ran: r.code === 0,
        note: `codex exec resume with model_auto_compact_token_limit: exit ${r.code}`,
        after: 0,
      };
    }
    case 'gemini': {
      w.server.setUsage(600_000, 1);
      const r = await w.run('Go on.', resume);
      return { ran: r.code === 0, note: `gemini with 600,000 prompt tokens reported once: exit ${r.code}`, after: 0 };
    }
    case 'copilot':
    case 'qwen': {
      // Both compact on request, headless: Copilot CLI's automatic compaction runs in the
      // background and is cancelled when the turn ends first.
      if (!session) return { ran: false, note: 'no session id', after: w.server.requests.length };
      if (d.agent === 'qwen') w.server.setUsage(30_500, 1);
      const slash = d.agent === 'qwen' ? '/compress' : '/compact';
      const r = await w.run(slash, { resume: session });
      w.server.setUsage(1200);
      const after = w.server.requests.length;
      const next = await w.run('Go on.', { resume: session });
      return {
        ran: r.code === 0 && next.code === 0,
        note: `${d.bin} -p ${slash} on the session, then one more turn: exit ${r.code}, ${next.code}`,
        after,
      };
    }
    case 'cline':
      // Cline compacts on its own estimate of ~28,800 tokens and has no headless resume or /compact.
      return { ran: false, note: 'Cline cannot be made to compact headless', after: w.server.requests.length };
    default: {
      // pi checks for compaction when a turn ends: the whole turn reports a nearly full window;
      // OpenCode and Kilo after every step, and would compact again and again: one reply does.
      // pi 1.5 checks between turns too, and a summary restarts the script: one full reply there.
      if (d.id === 'pi1') w.server.setUsage(PI1_WINDOW - 400, 1);
      else if (d.agent === 'pi') w.server.setUsage(199_000);
      else w.server.setUsage(199_000, 1);
      const r = await w.run('Go on.', resume);
      w.server.setUsage(1200);
      const next = await w.run('Go on.', resume);
      return {
        ran: r.code === 0 && next.code === 0,
        note: `${d.bin} with a nearly full window reported for one turn, then one more turn: exit ${r.code}, ${next.code}`,
        after: 0,
      };
    }
  }
}

export function sessionOf(d: Driver, transcript: string | undefined, stdout: string): string | undefined {
  if (!transcript) return undefined;
  if (d.agent === 'claude') return path.basename(transcript, '.jsonl');
  if (d.agent === 'codex')
    return /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/.exec(transcript)?.[1];
  if (d.agent === 'gemini') return 'latest';
  if (d.agent === 'pi') return transcript;
  if (d.agent === 'copilot') return path.basename(path.dirname(transcript));
  if (d.agent === 'qwen') return path.basename(transcript, '.jsonl');
  if (d.agent === 'cline') return undefined;
  return /"sessionID":"(ses_[A-Za-z0-9]+)"/.exec(stdout)?.[1] ?? /(ses_[A-Za-z0-9]+)/.exec(stdout)?.[1];
}

/** OpenCode and Kilo install their plugin SDK before they load a project plugin; offline that never ends. */
export function prepareWorld(d: Driver, w: World): void {
  const sdk =
    d.agent === 'opencode'
      ? { name: '@opencode-ai/plugin', version: '1.18.33', dirs: ['.config/opencode', '.opencode'] }
      : d.agent === 'kilo'
        ? { name: '@kilocode/plugin', version: '7.3.1', dirs: ['.config/kilo', '.kilo'] }
        : undefined;
  if (!sdk) return;
  for (const [i, rel] of sdk.dirs.entries()) {
    const dir = i === 0 ? path.join(w.home, rel) : path.join(w.repo.dir, rel);
    const target = path.join(dir, 'node_modules', sdk.name);
    mkdirSync(path.dirname(target), { recursive: true });
    cpSync(path.join(CACHE, 'node_modules', sdk.name), target, { recursive: true });
    if (d.agent === 'kilo') {
      const pkg = { dependencies: { [sdk.name]: sdk.version } };
      writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
      const lock = {
        name: 'plugins',
        lockfileVersion: 3,
        requires: true,
        packages: {
          '': pkg,
          [`node_modules/${sdk.name}`]: { version: sdk.version },
        },
      };
      writeFileSync(path.join(dir, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
    }
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Cline leaves a hub daemon running for the repository: ended by its process id, and waited for. */
export async function agentDone(d: Driver, w: World): Promise<void> {
  if (d.agent !== 'cline') return;
  const ended: number[] = [];
  let out = '';
  try {
    out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  } catch {
    return;
  }
  for (const line of out.split('\n')) {
    const m = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (m && m[2]!.includes('--cline-hub-daemon') && m[2]!.includes(w.repo.dir)) {
      try {
        process.kill(Number(m[1]), 'SIGTERM');
        ended.push(Number(m[1]));
      } catch {
        // already gone
      }
    }
  }
  // It flushes its databases before it exits; past 30 s it is stopped hard.
  for (let i = 0; i < 300 && ended.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
  for (const pid of ended.filter(alive)) process.kill(pid, 'SIGKILL');
}
