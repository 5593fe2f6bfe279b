// Reading and writing the files under .handoff/. Parsing is core's; this is the I/O.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Context } from '../cli/context.js';
import { HandoffError } from '../cli/errors.js';
import { parseHandoff, type Handoff, type HandoffMeta } from './handoff.js';
import { resolveId } from './id.js';
import { parsePin } from './pin.js';
import { MetaCache } from './cache.js';
import { createFileAtomic, listMarkdown, readText, replaceFileAtomic, sweepTemps } from './fs.js';
import { assertInside, isSymlink } from '../security/guard.js';

export interface Loaded<T> {
  items: T[];
  /** One line per file that could not be read; the rest still load. */
  problems: string[];
}

export const handoffsDir = (ctx: Context) => path.join(ctx.dir, 'handoffs');
export const pinsDir = (ctx: Context) => path.join(ctx.dir, 'pins');

async function loadAll<T extends { meta: { id: string } }>(
  ctx: Context,
  dir: string,
  parse: (text: string, file: string) => T,
): Promise<Loaded<T>> {
  await assertInside(ctx.root, dir, ctx.rel(dir));
  const names = await listMarkdown(dir);
  const items: T[] = [];
  const problems: string[] = [];
  await Promise.all(
    names.map(async (name) => {
      const file = ctx.rel(path.join(dir, name));
      try {
        if (await isSymlink(path.join(dir, name))) throw new HandoffError(`${file}: is a symbolic link; expected a regular file (a link could point outside the repository)`);
        const item = parse((await readText(path.join(dir, name))) ?? '', file);
        if (`${item.meta.id}.md` !== name) throw new HandoffError(`${file}: id '${item.meta.id}' does not match the file name; expected ${item.meta.id}.md`);
        items.push(item);
      } catch (error) {
        if (!(error instanceof HandoffError)) throw error;
        problems.push(error.message);
      }
    }),
  );
  items.sort((a, b) => (a.meta.id < b.meta.id ? -1 : 1));
  problems.sort();
  return { items, problems };
}

export const loadHandoffs = (ctx: Context) => loadAll(ctx, handoffsDir(ctx), parseHandoff);
export const loadPins = (ctx: Context) => loadAll(ctx, pinsDir(ctx), parsePin);

export interface HandoffSummary {
  file: string;
  meta: HandoffMeta;
}

/** Visits handoffs newest first with their front-matter (cached), until `visit` returns true. */
async function scanHandoffs(ctx: Context, visit: (summary: HandoffSummary, parsed?: Handoff) => boolean, problems: string[]): Promise<void> {
  const dir = handoffsDir(ctx);
  await assertInside(ctx.root, dir, ctx.rel(dir));
  const names = (await listMarkdown(dir)).reverse();
  const cache = await MetaCache.open(ctx.cacheFile);
  try {
    for (const name of names) {
      const full = path.join(dir, name);
      const file = ctx.rel(full);
      try {
        const stat = await fs.lstat(full);
        if (stat.isSymbolicLink()) throw new HandoffError(`${file}: is a symbolic link; expected a regular file (a link could point outside the repository)`);
        let parsed: Handoff | undefined;
        let meta = cache.get(name, stat);
        if (!meta) {
          parsed = parseHandoff((await readText(full)) ?? '', file);
          if (`${parsed.meta.id}.md` !== name) throw new HandoffError(`${file}: id '${parsed.meta.id}' does not match the file name; expected ${parsed.meta.id}.md`);
          meta = parsed.meta;
          cache.set(name, stat, meta);
        }
        if (visit({ file, meta }, parsed)) return;
      } catch (error) {
        if (!(error instanceof HandoffError)) throw error;
        problems.push(error.message);
      }
    }
  } finally {
    await cache.save(new Set(names));
  }
}

/** Every handoff's front-matter, oldest first: what `list` needs, without parsing unchanged files. */
export async function loadSummaries(ctx: Context): Promise<Loaded<HandoffSummary>> {
  const items: HandoffSummary[] = [];
  const problems: string[] = [];
  await scanHandoffs(
    ctx,
    (summary) => {
      items.push(summary);
      return false;
    },
    problems,
  );
  return { items: items.reverse(), problems: problems.sort() };
}

/**
 * The newest handoff whose front-matter satisfies `wanted`, stopping at the first match:
 * resume runs at every agent session start, and a repository gathers hundreds of
 * handoffs, nearly all of them finished.
 */
export async function findNewest(ctx: Context, wanted: (meta: HandoffMeta) => boolean): Promise<{ found?: Handoff; problems: string[] }> {
  const problems: string[] = [];
  let match: { summary: HandoffSummary; parsed?: Handoff } | undefined;
  await scanHandoffs(ctx, (summary, parsed) => (wanted(summary.meta) ? ((match = { summary, ...(parsed ? { parsed } : {}) }), true) : false), problems);
  if (!match) return { problems };
  const found = match.parsed ?? parseHandoff((await readText(path.resolve(ctx.root, match.summary.file))) ?? '', match.summary.file);
  return { found, problems };
}

/** The handoff that `new`, `resume`, `done` and the hooks continue: the newest open one on the branch. */
export function findOpenOnBranch(ctx: Context, branch: string | null): Promise<{ found?: Handoff; problems: string[] }> {
  return findNewest(ctx, (meta) => meta.status === 'open' && meta.branch === branch);
}

/** Prints each problem as a warning; returns whether there were any. */
export function warnProblems(ctx: Context, problems: readonly string[]): boolean {
  for (const problem of problems) ctx.stderr(`handoff: warning: skipped ${problem}`);
  return problems.length > 0;
}

export function findById<T extends { meta: { id: string } }>(items: readonly T[], query: string, kind: 'handoff' | 'pin', problems: readonly string[] = []): T {
  try {
    const id = resolveId(query, items.map((i) => i.meta.id), kind);
    return items.find((i) => i.meta.id === id)!;
  } catch (error) {
    // A file that failed to parse may be the one asked for: say so rather than "no match".
    const broken = problems.find((p) => path.basename(p.split(':')[0] ?? '').startsWith(query.toLowerCase()));
    if (broken) throw new HandoffError(broken);
    throw error;
  }
}

/** findById, and an id of the other kind (a pin given to `show`) is named for what it is. */
export async function findItem<T extends { meta: { id: string } }>(ctx: Context, items: readonly T[], query: string, kind: 'handoff' | 'pin', problems: readonly string[] = []): Promise<T> {
  try {
    return findById(items, query, kind, problems);
  } catch (error) {
    const q = query.trim().toLowerCase();
    if (!(error instanceof HandoffError) || q === '' || items.some((i) => i.meta.id.startsWith(q))) throw error;
    const others = kind === 'handoff' ? (await loadPins(ctx)).items : (await loadSummaries(ctx)).items;
    if (!others.some((o) => o.meta.id.startsWith(q))) throw error;
    throw new HandoffError(
      kind === 'handoff'
        ? `'${query}' is a pin, not a handoff (handoff pins lists pins; handoff list lists handoffs)`
        : `'${query}' is a handoff, not a pin (handoff show ${query} prints it; handoff pins lists pins)`,
    );
  }
}

export async function createItem(ctx: Context, dir: string, id: string, content: string): Promise<string> {
  const file = path.join(dir, `${id}.md`);
  await assertInside(ctx.root, dir, ctx.rel(dir));
  await sweep(ctx, dir);
  await createFileAtomic(file, content);
  return file;
}

export async function rewriteItem(ctx: Context, relFile: string, content: string): Promise<void> {
  const file = path.resolve(ctx.root, relFile);
  await assertInside(ctx.root, path.dirname(file), ctx.rel(path.dirname(file)));
  await sweep(ctx, path.dirname(file));
  await replaceFileAtomic(file, content);
}

/** Writers clean up after writers that were killed, and say so. */
async function sweep(ctx: Context, dir: string): Promise<void> {
  const removed = await sweepTemps(dir);
  if (removed > 0) ctx.stderr(`handoff: removed ${removed} temp file${removed === 1 ? '' : 's'} left in ${ctx.rel(dir)} by an interrupted write`);
}
