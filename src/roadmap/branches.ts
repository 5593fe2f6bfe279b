// The team's view: the handoffs of every local and remote-tracking branch, read from git
// objects without checking anything out, plus the working tree's. A file with the same
// content on many branches is read and parsed once (the cache is keyed by blob id), so the
// cost follows the distinct files, not branches times files.
import path from 'node:path';
import type { Context } from '../command/context.js';
import type { Handoff } from '../store/handoff.js';
import { openCache } from '../store/cache.js';
import { parseFiles, readTree } from '../store/reader.js';
import { blobId, HANDOFF_DIR, type Problem, type TreeFile } from '../store/tree.js';
import { readTextNow } from '../store/fs.js';

/** The working tree's label among the branch names. */
export const WORK_TREE = '(working tree)';

export interface Seen {
  handoff: Handoff;
  /** Where this version of the file is: branch names, and WORK_TREE. */
  refs: string[];
}

export interface TeamView {
  /** One entry per distinct version of a handoff file, newest handoff first. */
  seen: Seen[];
  /** Each ref's handoffs, in the order of `git for-each-ref`, the working tree first. */
  refs: Array<{ ref: string; handoffs: Handoff[] }>;
  problems: Problem[];
}

export async function teamView(ctx: Context): Promise<TeamView> {
  const git = await ctx.git();
  const [branches, work, opened] = await Promise.all([git.branches(), readTree(ctx), openCache(ctx.cacheFile)]);
  const trees = await git.dirBlobs([...new Set(branches.map((b) => b.commit))], `${HANDOFF_DIR}/handoffs`);
  // The distinct (path, blob) pairs, in layers where each path appears once (parseTree keys by path).
  const layers: Array<Map<string, string>> = [];
  const placed = new Set<string>();
  for (const blobs of trees.values())
    for (const [file, blob] of blobs) {
      const key = `${file}\0${blob}`;
      if (placed.has(key)) continue;
      placed.add(key);
      let layer = layers.find((l) => !l.has(file));
      if (!layer) layers.push((layer = new Map()));
      layer.set(file, blob);
    }
  const byBlob = new Map<string, Handoff>();
  const problems: Problem[] = [];
  for (const layer of layers) {
    // An open handoff's body, which every branch's roadmap shows part of, is read from its blob:
    // the cache keeps none (one `cat-file` per layer); a closed one's, nothing.
    const { files } = await git.filesOf(layer, opened.cache);
    const tree = await parseFiles(files, opened, opened.cache);
    for (const h of tree.handoffs) byBlob.set(`${h.file}\0${layer.get(h.file)}`, h);
    problems.push(...tree.problems);
  }
  // A work-tree file is one entry with the same file committed by the blob id of its text:
  // kept beside its stat data, else hashed from the text as read, else (the cache knew the
  // file by its stat data alone) from the text read now, where a branch has that path (the
  // first layer holds every path a branch has).
  const blobOf = (f: TreeFile) => {
    if (f.blob !== undefined) return f.blob;
    const text = f.text ?? (layers[0]?.has(f.path) ? readTextNow(path.join(ctx.root, f.path)) : undefined);
    return text === undefined ? '' : blobId(text);
  };
  const workBlob = new Map(work.files.map((f: TreeFile) => [f.path, blobOf(f)]));
  const seen = new Map<string, Seen>();
  const refs: TeamView['refs'] = [];
  const add = (ref: string, key: string, h: Handoff) => {
    const entry = seen.get(key) ?? { handoff: h, refs: [] };
    entry.refs.push(ref);
    seen.set(key, entry);
  };
  const workItems = work.tree.handoffs.map((h) => {
    add(WORK_TREE, `${h.file}\0${workBlob.get(h.file) ?? ''}`, h);
    return h;
  });
  refs.push({ ref: WORK_TREE, handoffs: workItems });
  for (const b of branches) {
    const items: Handoff[] = [];
    for (const [file, blob] of trees.get(b.commit) ?? []) {
      const h = byBlob.get(`${file}\0${blob}`);
      if (!h) continue;
      add(b.name, `${file}\0${blob}`, h);
      items.push(h);
    }
    refs.push({ ref: b.name, handoffs: items.sort((x, y) => (x.meta.id < y.meta.id ? -1 : 1)) });
  }
  const seenList = [...seen.values()].sort((x, y) =>
    x.handoff.meta.id !== y.handoff.meta.id
      ? x.handoff.meta.id < y.handoff.meta.id
        ? 1
        : -1
      : x.refs[0]! < y.refs[0]!
        ? -1
        : 1,
  );
  // A problem in the working tree is reported by the caller's own reader; these are the branches'.
  const unique = [...new Map([...work.tree.problems, ...problems].map((p) => [`${p.file}\0${p.message}`, p])).values()];
  return { seen: seenList, refs, problems: unique };
}
