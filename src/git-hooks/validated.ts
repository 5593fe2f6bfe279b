// What was validated: `<tool version> <tree id>` in one file in the git directory, the id
// being what `git write-tree --prefix=.handoff/` gives for a .handoff/ state found clean
// (no problem at all, the roadmap current and inside .handoff/, so the id covers it, and
// config.yml the one the run read), and on a second line what a writer's view of that tree
// is made of (record-next.ts). The pre-commit hook's shell reads the first line, compares it
// with the staged tree and skips node on a match. Recorders: the pre-commit hook after it
// validated (and completed) the index; a writer that read every file, for the tree `git add
// -A .handoff` would stage; a writer that read the open index, for the last record's tree
// with its files set in it (record-next.ts). A record only saves time: failing to read or
// write it never changes an answer.
import path from 'node:path';
import type { Context } from '../command/context.js';
import { version } from '../core/version.js';
import { heldBack, refreshWorkTree, type Rendered } from '../roadmap/roadmap-file.js';
import { blobId, cacheKey, CONFIG_PATH, HANDOFF_DIR, itemKind, type TreeFile } from '../store/tree.js';
import { openCache } from '../store/cache.js';
import { ownWrites, wholeTreeRead } from '../store/store.js';
import type { Git } from '../git/git.js';
import type { IndexEntry, TreeEntry } from '../git/git-plumbing.js';
import { RECORD_FILE } from './hook-script.js';
import { GIT_DIR_TEMP, ownTempsPathspec, readText, readTextNow, sweepTemps, writeDisposable } from '../store/fs.js';
import type { ViewSources } from '../store/history-view.js';
import type { Tree } from '../store/tree.js';
import {
  foldersNeeded,
  formatSeen,
  nextRecord,
  parseSeen,
  type Seen,
  seenOfTree,
  type ViewSeen,
} from './record-next.js';
import { stagedTree } from './staged-tree.js';

// Taken, not imported: see store/fs.ts.
const nodeFs = process.getBuiltinModule('node:fs');

type Where = Pick<Context, 'root' | 'cacheFile' | 'configFile' | 'git'>;

/** The index's entries under .handoff/, and the tree ids it keeps there (staged-tree.ts). */
type Listed = { entries: IndexEntry[]; trees: ReadonlyMap<string, string> };

/** A clean tree is recorded only when its id covers the roadmap. */
export function recordable(roadmap: string): boolean {
  return roadmap.startsWith(`${HANDOFF_DIR}/`);
}

/** The blob id of the work tree's config.yml (what this run's settings came from); undefined when there is none. */
export async function workConfigBlob(ctx: Where): Promise<string | undefined> {
  try {
    return blobId(await nodeFs.promises.readFile(ctx.configFile));
  } catch {
    return undefined;
  }
}

/** `git write-tree --prefix=.handoff/` of the index (GIT_INDEX_FILE, or `indexFile`); undefined when git cannot (unmerged, no .handoff/). */
function handoffTree(git: Git, indexFile?: string): Promise<string | undefined> {
  return git.writeTree(`${HANDOFF_DIR}/`, indexFile);
}

/** The record: the first line is the hook shell's, the second (what a view of the tree is made of) the next writer's. */
async function write(ctx: Where, tree: string, seen: Seen | undefined): Promise<void> {
  if (ctx.cacheFile)
    await writeDisposable(
      path.join(path.dirname(ctx.cacheFile), RECORD_FILE),
      `${version()} ${tree}\n${seen ? `${formatSeen(seen)}\n` : ''}`,
    );
}

/**
 * The pre-commit hook found the index clean (and staged a current roadmap): record its tree,
 * and what a view of it is made of from `parsed` (the index's items) and `index` (their blobs).
 */
export async function recordIndex(
  ctx: Where,
  roadmap: string,
  index: ReadonlyMap<string, string>,
  parsed: Tree,
): Promise<void> {
  if (!ctx.cacheFile || !recordable(roadmap) || index.get(CONFIG_PATH) !== (await workConfigBlob(ctx))) return;
  const tree = await handoffTree(await ctx.git());
  if (tree) await write(ctx, tree, seenOfTree(parsed, index));
}

/**
 * The tree `git add -A .handoff` would stage, recorded when the pre-commit hook would find
 * it clean. Computed in process when it can be (staged-tree.ts): the index's other files, and
 * every item file as just read and found clean, with the roadmap just rendered and the
 * config.yml this run read. Else staged into a temporary index in the git directory (never
 * the user's), and recorded only when that index holds exactly the item files just read
 * (same paths, same blobs, so the hook would parse the same texts), the roadmap just
 * rendered, and that config.yml.
 */
async function recordWorkTree(
  ctx: Where,
  roadmap: string,
  work: Rendered & { files?: TreeFile[]; sources?: ViewSources },
  listed: Promise<Listed | undefined> | undefined,
  stage: () => Staging,
): Promise<void> {
  if (!ctx.cacheFile || work.tree.problems.length > 0) return;
  const files = work.files;
  if (!files) return work.sources ? recordFromLast(ctx, roadmap, work.content, work.sources) : undefined;
  // A file the cache vouched for by its stat data comes without its text but with the blob
  // id the cache keeps beside it; one without (the first time) is read here, so a
  // supersede or a done does not leave the tree unrecorded.
  // Synchronous: a promise per file of a year's handoffs cost more than the few reads.
  const blobs = files.map((f) => {
    if (f.text !== undefined) return blobId(f.text);
    if (f.blob !== undefined) return f.blob;
    const text = readTextNow(path.join(ctx.root, f.path));
    return text === undefined ? undefined : blobId(text);
  });
  // Each work-tree file's blob id beside its stat data in the cache: the next writer reads none of them.
  const opened = await openCache(ctx.cacheFile);
  files.forEach((f, i) => {
    const blob = blobs[i];
    if (f.stamp === undefined || blob === undefined || f.blob === blob) return;
    const item = opened.cache.get(cacheKey(f));
    if (item) opened.cache.set(cacheKey(f), { ...item, blob });
  });
  await opened.save();
  const read = new Map(files.map((f, i) => [f.path, blobs[i]]));
  const [index, config] = await Promise.all([listed?.catch(() => undefined), workConfigBlob(ctx)]);
  const tree = index && stagedTree(index.entries, read, roadmap, blobId(work.content), config, index.trees);
  if (tree) return write(ctx, tree, seenOfTree(work.tree, read));
  await stage().use(roadmap, async (git, temp) => {
    const [index, staged] = await Promise.all([git.indexBlobs([HANDOFF_DIR], temp), handoffTree(git, temp)]);
    const items = [...index].filter(([p]) => itemKind(p) !== undefined);
    const same = items.length === files.length && items.every(([p, blob]) => read.get(p) === blob);
    if (staged && same && index.get(roadmap) === blobId(work.content) && index.get(CONFIG_PATH) === config)
      await write(ctx, staged, seenOfTree(work.tree, read));
  });
}

/** `git add -A .handoff` into a temporary index, under way: used once, or discarded; either removes it. */
interface Staging {
  use(roadmap: string, then: (git: Git, temp: string) => Promise<void>): Promise<void>;
  discard(): Promise<void>;
}

/**
 * `git add -A .handoff` but the roadmap into a temporary index in the git directory (never
 * the user's), started before the roadmap renders so that git stages meanwhile; `use`
 * stages the roadmap as written and hands the index over. Seeded with the user's index,
 * whose stat data lets git hash only the files changed since (from an empty one it hashed
 * every handoff of the year); the .handoff/ part is what the work tree holds either way.
 * No index yet: empty.
 */
function startStaging(ctx: Where, cacheFile: string, roadmap: string): Staging {
  const gitDir = path.dirname(cacheFile);
  const temp = path.join(gitDir, `handoff-validated.${process.pid}.index`);
  const started = (async () => {
    const git = await ctx.git();
    await nodeFs.promises.copyFile(path.join(gitDir, 'index'), temp).catch(() => {});
    // The roadmap is written meanwhile, through a temporary file beside it: neither is staged here.
    const except = [`:(top,exclude,literal)${roadmap}`, ownTempsPathspec(roadmap)];
    return { git, ok: await git.addAllInto(temp, HANDOFF_DIR, except) };
  })();
  started.catch(() => {});
  let over = false;
  // Removed only once git is done with it: a git still running would leave its lock behind.
  const end = async () => {
    await started.catch(() => {});
    await nodeFs.promises.rm(temp, { force: true }).catch(() => {});
  };
  return {
    async use(shown, then) {
      if (over) return;
      over = true;
      try {
        const { git, ok } = await started;
        if (ok && (await git.stageInto(temp, shown))) await then(git, temp);
      } finally {
        await end();
      }
    },
    async discard() {
      if (over) return;
      over = true;
      await end();
    },
  };
}

/** The last record, when this build wrote it: its tree id and, when kept, what a view of it is made of. */
async function lastRecord(ctx: Where): Promise<{ tree: string; seen: Seen | undefined } | undefined> {
  const text = ctx.cacheFile && (await readText(path.join(path.dirname(ctx.cacheFile), RECORD_FILE)));
  const [first, second] = (text ?? '').split('\n');
  const [v, tree] = (first ?? '').trim().split(' ');
  return v === version() && tree ? { tree, seen: parseSeen(second) } : undefined;
}

/** The blob of each file's text as it is now; undefined when one cannot be read. */
function blobsNow(root: string, files: Iterable<string>): Map<string, string> | undefined {
  const blobs = new Map<string, string>();
  for (const file of files) {
    const text = readTextNow(path.join(root, file));
    if (text === undefined) return undefined;
    blobs.set(file, blobId(text));
  }
  return blobs;
}

/**
 * The record after a writer that did not read every file (its roadmap came from the open
 * index, store/history-view.ts): the last record's tree with this run's files and the
 * roadmap set in it, when the view was that tree's (record-next.ts). The view's files are
 * read again for their blobs (the open ones and the closed ones shown: a few dozen), the
 * last tree's folders along this run's files in one `git cat-file`; no record yet, or
 * anything else, records nothing: the pre-commit hook then validates the index itself.
 */
async function recordFromLast(ctx: Where, roadmap: string, content: string, sources: ViewSources): Promise<void> {
  const last = await lastRecord(ctx);
  if (!last?.seen || sources.open.problems.length > 0 || sources.open.misnamed.length > 0) return;
  const own = ownWrites(ctx);
  const seen = last.seen;
  // Decided before anything else is read or git asked: most misses are open files that are
  // not the last tree's, by name (the last tree's open ones and this run's), then by blob.
  const openNow = [...sources.open.pins, ...sources.open.handoffs].map((i) => i.file);
  const expected = new Set(Object.keys(seen.open).filter((f) => !own.has(f)));
  for (const [f, w] of own) if (w.open) expected.add(f);
  if (openNow.length !== expected.size || !openNow.every((f) => expected.has(f))) return;
  const openFiles = blobsNow(ctx.root, openNow);
  if (!openFiles || ![...openFiles].every(([f, b]) => own.has(f) || seen.open[f] === b)) return;
  const read = blobsNow(ctx.root, sources.read);
  if (!read) return;
  const view: ViewSeen = { open: openFiles, closed: sources.closed, read };
  const folders = foldersNeeded(own.keys(), view, roadmap);
  const git = await ctx.git();
  const [found, config] = await Promise.all([
    git.readTrees(folders.map((f) => (f === '' ? last.tree : `${last.tree}:${f}`))),
    workConfigBlob(ctx),
  ]);
  const trees = new Map<string, TreeEntry[]>();
  for (const f of folders) {
    const entries = found.get(f === '' ? last.tree : `${last.tree}:${f}`);
    if (entries) trees.set(f, entries);
  }
  const next = nextRecord({
    last: seen,
    trees,
    own,
    view,
    roadmap: { file: roadmap, blob: blobId(content) },
    config,
  });
  if (next) await write(ctx, next.tree, next.seen);
}

const ahead = new WeakMap<Context, Promise<Listed | undefined>>();
/**
 * The index listed for afterWrite's record while the caller writes (`check` closing landed
 * handoffs): not waited on after them. Writers never stage: it is the index afterWrite lists.
 */
export function listIndexAhead(ctx: Context): void {
  if (!ctx.cacheFile || !recordable(ctx.config.roadmap) || ahead.has(ctx)) return;
  const listed = ctx.git().then((git) => git.indexEntriesAndTrees(HANDOFF_DIR));
  listed.catch(() => {});
  ahead.set(ctx, listed);
}

/**
 * After `new`, `done`, `reopen`, `pin`, `unpin` wrote their files: the work tree's roadmap
 * refreshed as the refresh hook does, and the result recorded when clean. Never fails the
 * command that already wrote its file: one warning instead.
 */
export async function afterWrite(ctx: Context): Promise<void> {
  const roadmap = ctx.config.roadmap;
  const cacheFile = ctx.cacheFile;
  let staging: Staging | undefined;
  const stage = () => (staging ??= startStaging(ctx, cacheFile!, roadmap));
  let listed: Promise<Listed | undefined> | undefined;
  // What a killed writer left (a temporary index, a record half written) goes first.
  if (cacheFile) await sweepTemps(path.dirname(cacheFile), GIT_DIR_TEMP).catch(() => {});
  // When the roadmap comes from every file, the index is listed while it renders (from the
  // open index, nothing is: recordFromLast).
  const early = ahead.get(ctx);
  ahead.delete(ctx);
  if (cacheFile && recordable(roadmap) && wholeTreeRead(ctx)) {
    listed = early ?? ctx.git().then((git) => git.indexEntriesAndTrees(HANDOFF_DIR));
    listed.catch(() => {});
  }
  let work: Awaited<ReturnType<typeof refreshWorkTree>>;
  try {
    work = await refreshWorkTree(ctx, roadmap, true);
  } catch (error) {
    await staging?.discard();
    ctx.stderr(
      `handoff: warning: ${roadmap} was not refreshed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
    return;
  }
  if (work && work.tree.problems.length > 0) ctx.stderr(heldBack(roadmap, work.tree.problems));
  try {
    if (work && cacheFile && recordable(roadmap))
      await recordWorkTree(ctx, roadmap, work, listed, stage).catch(() => {});
  } finally {
    await staging?.discard();
  }
}
