// Proof of delivery for `agent status`: did the agent's latest session in this repository
// receive the pins? Read from the agent's own session file (what it recorded as passed to
// the model: hook output, injected context), not from our belief that the hook ran. And
// when the last compaction handoff was written.
import type { Context } from '../command/context.js';
import type { Agent } from '../transcripts/events.js';
import { activePins } from '../store/pin-scope.js';
import { loadHandoffs, loadPins } from '../store/store.js';
import { pinSearch } from './pins-seen.js';
import { homeShort } from '../command/output.js';

/** Our agent names and the transcript readers' names for them. */
const SESSION_AGENT: Record<string, Agent> = {
  claude: 'claude-code',
  codex: 'codex',
  gemini: 'gemini-cli',
  pi: 'pi',
  opencode: 'opencode',
};

/**
 * OpenCode's plugin and pi's extension add the pins to each request's system prompt, which
 * neither records in its session: their sessions cannot prove delivery either way.
 */
const UNRECORDED = new Set(['opencode', 'pi']);

export interface Delivery {
  /** The newest session file of this repository, `~` for the home directory; null when none was found. */
  session: string | null;
  sessionTime: string | null;
  /** true: every active pin is in what reached the model; false: some are not; null: cannot tell. */
  pinsArrived: boolean | null;
  missingPins: string[];
  note?: string;
}

export interface LastCompaction {
  id: string;
  created: string;
  file: string;
}

/** The pins' delivery to each named agent's latest session in this repository. */
export async function deliveries(ctx: Context, agents: readonly string[]): Promise<Map<string, Delivery>> {
  const wanted = agents.filter((a) => SESSION_AGENT[a] !== undefined);
  const out = new Map<string, Delivery>();
  if (wanted.length === 0) return out;
  const pins = activePins((await loadPins(ctx)).items).map((p) => ({ id: p.meta.id, text: p.text }));
  const { discoverSessions } = await import('../transcripts/discovery.js');
  const { ranHere } = await import('../transcripts/transcript-source.js');
  const { readLines } = await import('../transcripts/lines.js');
  const candidates = await discoverSessions(ctx.root, ctx.env);
  for (const name of wanted) {
    let found: (typeof candidates)[number] | undefined;
    // Newest first; a session that says it ran elsewhere is another repository's.
    for (const c of candidates.filter((x) => x.agent === SESSION_AGENT[name]).slice(0, 20))
      if ((await ranHere(ctx, c).catch(() => false)) !== false) {
        found = c;
        break;
      }
    if (!found) {
      out.set(name, { session: null, sessionTime: null, pinsArrived: null, missingPins: [] });
      continue;
    }
    const base = {
      session: homeShort(found.file, ctx.env.HOME),
      sessionTime: found.mtime.toISOString(),
    };
    if (UNRECORDED.has(name)) {
      out.set(name, {
        ...base,
        pinsArrived: null,
        missingPins: [],
        note: 'its session file does not record the system prompt our plugin adds',
      });
      continue;
    }
    const search = pinSearch(pins);
    for await (const line of readLines(found.file)) {
      search.line(line);
      if (search.done()) break;
    }
    const { missing } = search.result();
    out.set(name, { ...base, pinsArrived: pins.length === 0 ? null : missing.length === 0, missingPins: missing });
  }
  return out;
}

/**
 * The newest handoff a compaction hook wrote: it has a `step` (write.ts, continuation),
 * which `handoff new` never writes; older versions started its goal with "continue:".
 */
export async function lastCompaction(ctx: Context): Promise<LastCompaction | null> {
  const written = (await loadHandoffs(ctx)).items
    .filter((h) => h.meta.step !== undefined || /^continue:/i.test(h.meta.goal))
    .sort((a, b) => b.meta.created.localeCompare(a.meta.created))[0];
  return written ? { id: written.meta.id, created: written.meta.created, file: written.file } : null;
}
