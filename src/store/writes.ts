// The writes the commands make under .handoff/: new items and rewrites, each checked (size,
// symlinks, inside the repository), atomic, and told to the run's reads (store.ts, wrote).
import path from 'node:path';
import type { RunContext } from '../core/context.js';
import { HandoffError } from '../core/errors.js';
import { datedFolder } from './id.js';
import { createFileAtomic, replaceFileAtomic, sweepTemps } from './fs.js';
import { openCache } from './cache.js';
import { parseFiles } from './reader.js';
import { recordOwn, writtenHere } from './own.js';
import { handoffsDir, wrote } from './store.js';
import { ITEM_MAX_BYTES, itemKind, type CachedItem, type ParseCache, type Parsers } from './tree.js';
import type { Handoff } from './handoff.js';
import { assertInside } from '../security/guard.js';

/** Nothing over the readers' limit is written: it would be refused at every read after. */
function assertSize(ctx: RunContext, file: string, content: string): void {
  const bytes = Buffer.byteLength(content);
  if (bytes > ITEM_MAX_BYTES)
    throw new HandoffError(
      `${ctx.rel(file)}: would be ${bytes} bytes; a handoff or pin may be at most ${ITEM_MAX_BYTES} (1 MiB): nothing written`,
    );
}

export async function createItem(ctx: RunContext, dir: string, id: string, content: string): Promise<string> {
  assertSize(ctx, path.join(dir, `${id}.md`), content);
  await assertInside(ctx.root, dir, ctx.rel(dir));
  const file = path.join(dir, `${id}.md`);
  await sweep(ctx, dir);
  await createFileAtomic(file, content);
  await written(ctx, file, content, true);
  return file;
}

/**
 * A new handoff goes into its dated folder (tree.ts says why), created one level at a
 * time so that no level is ever a link that leads out of the repository.
 */
export async function createHandoff(ctx: RunContext, id: string, content: string): Promise<string> {
  assertSize(ctx, path.join(handoffsDir(ctx), `${id}.md`), content); // before any folder is made
  return createItem(ctx, await datedDir(ctx, id), id, content);
}

/** The dated folder of a handoff, made if missing, one level at a time, never through a link that leads out. */
export async function datedDir(ctx: RunContext, id: string): Promise<string> {
  let dir = handoffsDir(ctx);
  for (const part of ['', ...datedFolder(id).split('/')]) {
    dir = path.join(dir, part);
    await assertInside(ctx.root, dir, ctx.rel(dir));
    await process.getBuiltinModule('node:fs').promises.mkdir(dir, { recursive: true }); // taken, not imported: see fs.ts
  }
  return dir;
}

export async function rewriteItem(ctx: RunContext, relFile: string, content: string): Promise<void> {
  await rewriteItems(ctx, [{ file: relFile, content }]);
}

/**
 * Rewrites several files at once (`check` closing the handoffs that landed): each folder is
 * checked and swept once, and the files are written side by side, each still synced and
 * renamed into place, so that closing many costs their writes and not a round per file.
 * A handoff's `parsed`, when the writer has it (handoff.ts, updateHandoffParsed), is what
 * its content parses to: it is not parsed again.
 */
export async function rewriteItems(
  ctx: RunContext,
  writes: ReadonlyArray<{ file: string; content: string; parsed?: Handoff | undefined }>,
): Promise<void> {
  const files = writes.map((w) => path.resolve(ctx.root, w.file));
  files.forEach((file, i) => assertSize(ctx, file, writes[i]!.content));
  for (const dir of new Set(files.map((f) => path.dirname(f)))) {
    await assertInside(ctx.root, dir, ctx.rel(dir));
    await sweep(ctx, dir);
  }
  // A rewrite keeps whose the file is: only a file this clone wrote and nobody changed since stays its own.
  const cache = await openCache(ctx.cacheFile);
  const mine = files.map((file) => itemKind(ctx.rel(file)) === 'handoff' && writtenHere(cache, ctx.rel(file), file));
  const done = await Promise.allSettled(files.map((file, i) => replaceFileAtomic(file, writes[i]!.content)));
  for (const [i, d] of done.entries())
    if (d.status === 'fulfilled') await written(ctx, files[i]!, writes[i]!.content, mine[i]!, writes[i]!.parsed);
  const failed = done.find((d) => d.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * The next read sees the write; and the file goes into the cache now, while the parsers
 * are loaded, so the next run (a session start right after \`new\`) finds every file there.
 * Through the cache's lookups for a few files: a run that did not read the whole tree (a
 * writer's view, history-view.ts) writes no items shard (cache.ts says why).
 */
async function written(ctx: RunContext, file: string, content: string, mine: boolean, parsed?: Handoff): Promise<void> {
  const rel = ctx.rel(file);
  const one = { path: rel, text: content };
  const cache = await openCache(ctx.cacheFile);
  if (mine && itemKind(rel) === 'handoff') {
    recordOwn(cache, rel, file);
    await cache.save();
  }
  // What the file parsed to, as the cache is given it, for the open index (store.ts, readOpenIndex).
  // Parsed, not looked up: its text is new (a new id, or a change), and a look-up by its blob
  // id indexes every entry of its month by blob first (cache-pack.ts).
  let item: CachedItem | undefined;
  const some: ParseCache = {
    get: () => undefined,
    set: (key, given) => {
      item = given;
      cache.some.set(key, given);
    },
    ...(cache.some.knows ? { knows: (p: string) => cache.some.knows!(p) } : {}),
  };
  const known: Parsers | undefined = parsed && {
    handoff: () => parsed,
    pin: () => {
      throw new Error(`internal: ${rel} was given as a handoff's parse`);
    },
  };
  const tree = await parseFiles([one], cache, some, known);
  wrote(ctx, one, tree, {
    text: content,
    item,
    clean: tree.problems.length === 0 && tree.misnamed.length === 0,
    // What the open index keeps of it: every pin, an open handoff.
    open: tree.pins.length > 0 || tree.handoffs.some((h) => h.meta.status === 'open'),
  });
}

/** Writers clean up after writers that were killed, and say so. */
async function sweep(ctx: RunContext, dir: string): Promise<void> {
  const removed = await sweepTemps(dir);
  if (removed > 0)
    ctx.stderr(
      `handoff: removed ${removed} temp file${removed === 1 ? '' : 's'} left in ${ctx.rel(dir)} by an interrupted write`,
    );
}
