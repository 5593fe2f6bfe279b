// The agent's own compaction summary, harvested into the handoff of that compaction. The
// compaction hook runs before the summary exists: it writes the handoff from the rules and
// records here that a summary is due (`<git dir>/handoff-harvest.json`: the handoff, the
// transcript, and how many summaries it held then). The next hook of that repository (the
// session start after the compaction, or any later one) reads the summary once the agent
// has written it, and amends that same handoff: one handoff per compaction.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from '../command/context.js';
import { HandoffError } from '../core/errors.js';
import { dueFile } from './harvest-due.js';

export interface Due {
  /** The handoff written at the compaction, relative to the repository. */
  file: string;
  transcript: string;
  agent: string;
  session?: string;
  /** Summaries the transcript held when the compaction began: the next one is this compaction's. */
  before: number;
  /** Hooks that looked and found no summary yet. */
  tries?: number;
}

// A compaction the agent gave up on leaves no summary: stop reading its transcript at some point.
const MAX_TRIES = 10;

async function readDue(file: string): Promise<Due[]> {
  try {
    const v = JSON.parse(await readFile(file, 'utf8'));
    return Array.isArray(v) ? v.filter((d) => typeof d?.file === 'string' && typeof d?.transcript === 'string') : [];
  } catch {
    return [];
  }
}

async function writeDue(file: string, due: readonly Due[]): Promise<void> {
  if (due.length === 0) await rm(file, { force: true });
  else await writeFile(file, `${JSON.stringify(due, null, 2)}\n`);
}

/** The summaries a transcript holds, oldest first (for OpenCode, of the one session). */
export async function summariesIn(ctx: Context, transcript: string, session?: string): Promise<string[]> {
  const { openTranscript } = await import('../transcripts/open.js');
  const opened = await openTranscript(transcript, transcript, ctx.root, session);
  const found: string[] = [];
  for await (const e of opened.events())
    if (e.kind === 'compaction' && e.summary && !e.sidechain) found.push(e.summary);
  return found;
}

export async function recordDue(ctx: Context, due: Omit<Due, 'before'>): Promise<void> {
  const file = dueFile(ctx);
  if (!file) return;
  let before: number;
  try {
    before = (await summariesIn(ctx, due.transcript, due.session)).length;
  } catch {
    return; // a transcript we cannot read has no summary to wait for
  }
  const all = (await readDue(file)).filter((d) => d.file !== due.file);
  await writeDue(file, [...all, { ...due, before }]);
}

/** Folds every summary that has arrived into its handoff; the ones still to come stay due. */
export async function harvest(ctx: Context): Promise<void> {
  const file = dueFile(ctx);
  if (!file) return;
  const waiting: Due[] = [];
  for (const due of await readDue(file)) {
    let summaries: string[];
    try {
      summaries = await summariesIn(ctx, due.transcript, due.session);
    } catch (error) {
      if (!(error instanceof HandoffError)) throw error;
      ctx.stderr(`handoff: warning: ${error.message}; ${due.file} keeps the draft from the rules`);
      continue;
    }
    const summary = summaries[due.before];
    if (summary === undefined) {
      const tries = (due.tries ?? 0) + 1;
      if (tries < MAX_TRIES) waiting.push({ ...due, tries });
      else
        ctx.stderr(
          `handoff: warning: ${due.agent} wrote no summary for ${due.file}; it keeps the draft from the rules`,
        );
      continue;
    }
    await foldInto(ctx, due, summary);
  }
  await writeDue(file, waiting);
}

/** One summary into the handoff of its compaction (or the live one after it): Cline's, read at once, comes here directly. */
export async function foldInto(ctx: Context, due: Omit<Due, 'before'>, summary: string): Promise<void> {
  const { parseSummary } = await import('../handoff/summary-form.js');
  const { withProse } = await import('../handoff/summary-prose.js');
  const { TITLE } = await import('../store/sections.js');
  // The sections it wrote, and what its prose says for the sections it did not (summary-prose.ts).
  const { summary: parsed, fromProse } = withProse(parseSummary(summary));
  const whose = `${due.agent}'s summary${due.session ? ` of session ${due.session}` : ''}`;
  if (parsed.items === 0) {
    ctx.stderr(
      `handoff: warning: ${whose} has none of the handoff's sections (## ${TITLE.goal}, ## ${TITLE.decisions}, ...) and no decision, abandoned approach or open question in its prose; ${due.file} keeps the draft from the rules`,
    );
    return;
  }
  const { loadHandoffs, loadPins, reread } = await import('../store/store.js');
  const { rewriteItem } = await import('../store/writes.js');
  const git = await ctx.git();
  const [tracked, changed, pins] = await Promise.all([git.trackedPaths(), git.uncommittedPaths(), loadPins(ctx)]);
  const known = new Set([...tracked, ...changed]);
  const { activePins } = await import('../store/pin-scope.js');
  const { foldSummary } = await import('../handoff/summary-fold.js');
  const { withWriterLock } = await import('../store/writer-lock.js');
  const { updateHandoff } = await import('../store/handoff.js');
  const { afterWrite } = await import('../git-hooks/validated.js');
  const provenance = `summary of ${due.agent}${due.session ? ` session ${due.session}` : ''}`;
  // Found under the lock: a handoff written meanwhile may have superseded the compaction's.
  const wrote = await withWriterLock(ctx, 'handoff hook', async () => {
    const live = liveHandoff((await loadHandoffs(ctx)).items, path.basename(due.file));
    if (!live) {
      ctx.stderr(`handoff: warning: ${due.file} is gone; ${whose} was not folded in`);
      return false;
    }
    if (live.meta.status !== 'open') {
      const which = live.file === due.file ? due.file : `${live.file}, which superseded ${due.file},`;
      ctx.stderr(
        `handoff: warning: ${which} is ${live.meta.status === 'done' ? 'done' : 'closed'}; a closed handoff stays as it was written, so ${whose} was not folded in`,
      );
      return false;
    }
    const current = await reread(ctx, live);
    const into = current.file;
    const folded = foldSummary({
      body: current.bodyText,
      summary: parsed,
      provenance,
      known: (p) => known.has(p),
      pins: activePins(pins.items).map((p) => p.text),
    });
    const moved = into === due.file ? '' : ` (written for ${due.file}, which this handoff superseded)`;
    const note = `- ${whose} was folded in after the compaction${moved}: ${folded.added} item${folded.added === 1 ? '' : 's'}, marked "${provenance}".`;
    const { addToSections } = await import('../handoff/draft-additions.js');
    const body = addToSections(folded.body, { [TITLE.references]: [note] });
    // A goal the hook had to make up gives way to the user's request as the summary states it.
    const placeholder = /^(?:continue: )?the work of the (?:compacted )?agent session\b/.test(current.meta.goal);
    const goal = placeholder && folded.request ? { goal: folded.request } : {};
    await rewriteItem(ctx, current.file, updateHandoff({ ...current, bodyText: body }, goal));
    const extras = [
      fromProse
        ? parsed.items === fromProse
          ? `read from its prose: it has none of the handoff's sections`
          : `${fromProse} read from its prose`
        : '',
      folded.unknownPaths.length
        ? `${folded.unknownPaths.length} path${folded.unknownPaths.length === 1 ? '' : 's'} git does not know flagged`
        : '',
      folded.restated
        ? `${folded.restated} item${folded.restated === 1 ? '' : 's'} the handoff already holds in other words left out`
        : '',
      folded.pinItems
        ? `${folded.pinItems} restated pin${folded.pinItems === 1 ? '' : 's'} left to .handoff/pins/`
        : '',
      parsed.ignored ? `its pinned-constraints section ignored (pins come from .handoff/pins/ alone)` : '',
      folded.redacted.length ? `${[...new Set(folded.redacted)].join(', ')} redacted` : '',
    ].filter(Boolean);
    ctx.stderr(
      `handoff: folded ${whose} into ${into}${into === due.file ? '' : ` (${due.file}, written at the compaction, was superseded by it)`} (${folded.added} item${folded.added === 1 ? '' : 's'}${extras.length ? `; ${extras.join('; ')}` : ''})`,
    );
    return true;
  });
  if (wrote) await afterWrite(ctx);
}

/**
 * Where the summary goes: the handoff written at the compaction, or, when a newer one has
 * superseded it since, the newest of its successors: the summary belongs with the live
 * state, and a superseded handoff stays as it was written. Undefined when the file is gone.
 */
export function liveHandoff<H extends { file: string; meta: { id: string; status: string; superseded_by?: string } }>(
  handoffs: readonly H[],
  name: string,
): H | undefined {
  let h = handoffs.find((x) => path.basename(x.file) === name);
  const seen = new Set<string>();
  while (h && h.meta.status === 'superseded' && h.meta.superseded_by && !seen.has(h.meta.id)) {
    seen.add(h.meta.id);
    const next = handoffs.find((x) => x.meta.id === h!.meta.superseded_by);
    if (!next) break;
    h = next;
  }
  return h;
}
