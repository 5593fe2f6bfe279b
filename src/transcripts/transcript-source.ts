// Finding and reading the transcript a command works from (--from auto|<path>), shared
// by `new`, `meter` and `sessions`. Every automatic choice prints one line saying so.
import path from 'node:path';
import type { Context } from '../command/context.js';
import { HandoffError, UsageError } from '../core/errors.js';
import { homeShort } from '../command/output.js';
import { Extractor, withinBudget, type Extraction, type Standing } from './extract.js';
import type { FileChange } from '../store/handoff.js';
import { serializePin, type PinMeta } from '../store/pin.js';
import { activePins } from '../store/pin-scope.js';
import { transcriptParts, type DraftParts } from './transcript-draft.js';
import { estimateTokens } from './tokens.js';
import { discoverSessions, type Candidate } from './discovery.js';
import { loadPins, pinsDir, warnProblems } from '../store/store.js';
import { createItem } from '../store/writes.js';
import { openTranscript, type OpenedTranscript } from './open.js';
import { newStats } from './events.js';

export interface Read {
  opened: OpenedTranscript;
  extraction: Extraction;
  shown: string;
}

/** A path for messages and drafts: relative to the repo when inside it, else with ~ for home. */
function showPath(ctx: Context, file: string): string {
  const rel = path.relative(ctx.root, file);
  if (!rel.startsWith('..') && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
  return homeShort(file, ctx.env.HOME);
}

function insideRepo(ctx: Context, dir: string | undefined): boolean | undefined {
  if (dir === undefined) return undefined;
  const rel = path.relative(ctx.root, dir);
  return !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** The transcript's extraction; `standing` is the earlier handoff's current decisions, which the session may reverse. */
export async function scan(opened: OpenedTranscript, standing: readonly Standing[] = []): Promise<Extraction> {
  const x = new Extractor(opened.agent, standing);
  for await (const e of opened.events()) x.add(e);
  return x.result();
}

function noteSkipped(ctx: Context, r: Read): void {
  const { badLines, unknown } = r.opened.stats;
  if (badLines > 0)
    ctx.stderr(
      `handoff: skipped ${badLines} line${badLines === 1 ? '' : 's'} of ${r.shown} that ${badLines === 1 ? 'is' : 'are'} not valid JSON (truncated, or still being written)`,
    );
  if (unknown > 0)
    ctx.stderr(
      `handoff: skipped ${unknown} record${unknown === 1 ? '' : 's'} of a type this version does not know in ${r.shown}`,
    );
}

/** The session's working directory from its first records, without reading the rest. */
async function peekCwd(opened: OpenedTranscript): Promise<string | undefined> {
  let seen = 0;
  for await (const e of opened.events()) {
    if (e.kind === 'meta' && e.cwd) return e.cwd;
    if (++seen > 50) break;
  }
  return undefined;
}

/** Whether a discovered session ran in this repository, from its first records (undefined: it does not say). */
export async function ranHere(ctx: Context, c: Candidate): Promise<boolean | undefined> {
  const opened = await openTranscript(c.file, showPath(ctx, c.file), ctx.root, c.sessionId);
  return insideRepo(ctx, await peekCwd(opened));
}

/** A discovered session, or undefined when it ran outside this repository (checked before the full read). */
export async function readCandidate(
  ctx: Context,
  c: Candidate,
  standing: readonly Standing[] = [],
): Promise<Read | undefined> {
  const shown = showPath(ctx, c.file);
  const opened = await openTranscript(c.file, shown, ctx.root, c.sessionId);
  if (insideRepo(ctx, await peekCwd(opened)) === false) return undefined;
  Object.assign(opened.stats, newStats());
  const extraction = await scan(opened, standing);
  if (insideRepo(ctx, extraction.cwd) === false) return undefined;
  return { opened, extraction, shown };
}

/** The transcript named by --from: `auto` (the newest session of this repository) or a path. */
export async function readFrom(
  ctx: Context,
  from: string,
  force: boolean,
  standing: readonly Standing[] = [],
): Promise<Read | undefined> {
  if (from === 'auto') {
    for (const c of await discoverSessions(ctx.root, ctx.env)) {
      // In-repo files (Aider, SpecStory) carry no cwd: they are this repository's.
      const r = await readCandidate(ctx, c, standing).catch(() => undefined);
      if (!r) continue;
      ctx.stderr(
        `handoff: reading the ${r.opened.agent} session ${r.extraction.sessionId ?? ''}${r.extraction.sessionId ? ' ' : ''}(${r.shown}), the newest for this repository`,
      );
      noteSkipped(ctx, r);
      return r;
    }
    return undefined;
  }
  // An empty path would resolve to the working directory and be refused as a directory.
  if (from === '') throw new UsageError('--from is empty; give a transcript file, or auto');
  const file = path.resolve(ctx.cwd, from);
  const opened = await openTranscript(file, from, ctx.root);
  const r: Read = { opened, extraction: await scan(opened, standing), shown: showPath(ctx, file) };
  if (insideRepo(ctx, r.extraction.cwd) === false) {
    if (!force)
      throw new HandoffError(
        `${from}: this ${opened.agent} session ran in ${r.extraction.cwd}, not in this repository; use --force to use it anyway`,
      );
    ctx.stderr(`handoff: warning: ${from} ran in ${r.extraction.cwd}, not in this repository (--force)`);
  }
  noteSkipped(ctx, r);
  return r;
}

/** The draft's transcript parts, with the latest user turns trimmed to the token budget. */
export async function draftParts(
  ctx: Context,
  r: Read,
  gitFiles: readonly FileChange[],
  omitCandidates: boolean,
): Promise<DraftParts> {
  const budget = ctx.config.recent_user_tokens;
  const recent = { ...withinBudget(r.extraction.recentUser, budget, estimateTokens), budget };
  const extraction = omitCandidates ? { ...r.extraction, constraints: [] } : r.extraction;
  return transcriptParts({ extraction, source: r.shown, recent }, ctx.root, gitFiles);
}

/** `--pin-candidates`: the user's constraints become pins, verbatim; ones already pinned are skipped. */
export async function pinCandidates(ctx: Context, r: Read, author: string): Promise<number> {
  const { items, problems } = await loadPins(ctx);
  warnProblems(ctx, problems);
  const have = new Set(activePins(items).map((p) => p.text));
  let made = 0;
  const { findSecrets } = await import('../security/redact.js');
  for (const c of r.extraction.constraints) {
    if (have.has(c.text)) continue;
    // A pin is kept byte for byte, so one that holds a secret (or a redaction marker) is not written.
    if (findSecrets(c.text).length > 0 || c.text.includes('[REDACTED:')) {
      ctx.stderr(`handoff: not pinned from ${r.shown} line ${c.line}: it holds a secret; pin it by hand without it`);
      continue;
    }
    have.add(c.text);
    const meta: PinMeta = { id: ctx.newId(), created: ctx.now().toISOString(), author, status: 'active' };
    const file = await createItem(ctx, pinsDir(ctx), meta.id, serializePin(meta, c.text));
    ctx.stderr(`handoff: pinned ${meta.id} from ${r.shown} line ${c.line}: ${ctx.rel(file)}`);
    made++;
  }
  return made;
}
