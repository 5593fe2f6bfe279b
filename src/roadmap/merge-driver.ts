// `handoff merge-driver %O %A %B %P`: git's merge driver for the roadmap and for handoff
// and pin files (`handoff init` registers it). A handoff or pin merges field by field
// (item-merge.ts). For the roadmap, instead of merging the generated text, it regenerates
// it from a three-way merge of the .handoff/ trees of the two sides, and writes it over %A.
//
// Git does not tell a driver which commits it merges; what it leaves behind:
// - `git merge` sets GITHEAD_<commit>=<name> for the commit being merged in;
// - a rebase lists the commit being picked last in <git dir>/rebase-merge/done, and
//   `rebase --apply` names it in rebase-apply/original-commit; its parent is the base.
// When neither is there, or anything fails, git's own text merge runs instead, so the
// worst case is the conflict a user would have had without us.
import { promises as fs } from 'node:fs';
import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { itemKind, mergeMaps, HANDOFF_DIR, type TreeFile } from '../store/tree.js';
import { mergeItem } from './item-merge.js';
import { readText } from '../store/fs.js';
import type { Git } from '../git/git.js';
import { renderTree } from './roadmap-file.js';
import { openCache } from '../store/cache.js';

interface Sides {
  base: string | null;
  theirs: string;
}

async function findSides(ctx: Context, git: Git): Promise<Sides | null> {
  const heads = Object.keys(ctx.env).filter((k) => /^GITHEAD_[0-9a-f]{40,64}$/.test(k));
  if (heads.length === 1) {
    const theirs = heads[0]!.slice('GITHEAD_'.length);
    return { theirs, base: await git.mergeBase('HEAD', theirs) };
  }
  const [done, original] = await git.gitPaths(['rebase-merge/done', 'rebase-apply/original-commit']);
  const lines = ((done && (await readText(done))) ?? '')
    .split('\n')
    .filter((l) => /^\s*(p|pick|r|reword|e|edit|s|squash|f|fixup)\s/.test(l));
  // `git rebase --apply` (git am -3) names the commit it is applying in rebase-apply/original-commit.
  const sha =
    /^\s*\w+\s+([0-9a-f]{7,64})\b/.exec(lines.at(-1) ?? '')?.[1] ??
    /^[0-9a-f]{40,64}$/m.exec((original && (await readText(original))) ?? '')?.[0];
  if (!sha) return null;
  const theirs = await git.resolveCommit(sha);
  if (!theirs) return null;
  return { theirs, base: await git.resolveCommit(`${theirs}^`) };
}

async function textMerge(ctx: Context, base: string, ours: string, theirs: string): Promise<Outcome> {
  return (await (await ctx.git()).mergeFile(ours, base, theirs)) ? undefined : 'failure';
}

/**
 * Handoff and pin files both sides changed: the roadmap is rendered from what the item
 * driver will write for them (field by field), not from our side alone.
 */
async function mergeBothChanged(
  git: Git,
  files: TreeFile[],
  o: ReadonlyMap<string, string>,
  a: ReadonlyMap<string, string>,
  b: ReadonlyMap<string, string>,
): Promise<void> {
  const both = files.filter(
    (f) =>
      itemKind(f.path) &&
      a.get(f.path) !== b.get(f.path) &&
      a.get(f.path) !== o.get(f.path) &&
      b.get(f.path) !== o.get(f.path) &&
      a.has(f.path) &&
      b.has(f.path),
  );
  if (both.length === 0) return;
  const blobs = both.flatMap((f) =>
    [o.get(f.path), a.get(f.path)!, b.get(f.path)!].filter((x): x is string => x !== undefined),
  );
  const texts = await git.readObjects(blobs);
  for (const f of both) {
    const base = o.get(f.path);
    const merged = mergeItem(
      base ? (texts.get(base) ?? '') : '',
      texts.get(a.get(f.path)!) ?? '',
      texts.get(b.get(f.path)!) ?? '',
      f.path,
    ).text;
    if (merged === null) continue;
    f.text = merged;
    delete f.blob;
  }
}

/** A handoff or pin file: front-matter merged field by field (item-merge.ts), bodies as text. */
async function itemMerge(ctx: Context, base: string, ours: string, theirs: string, file: string): Promise<Outcome> {
  try {
    const [o, a, b] = await Promise.all([base, ours, theirs].map(async (f) => (await readText(f)) ?? ''));
    const { text } = mergeItem(o!, a!, b!, file);
    if (text !== null) {
      await fs.writeFile(ours, text);
      return;
    }
    ctx.stderr(`handoff: merge driver: both sides changed the text of ${file}; merging it as text`);
  } catch (error) {
    ctx.stderr(
      `handoff: warning: merge driver could not read ${file} (${(error as Error).message.split('\n')[0]}); merging it as text`,
    );
  }
  return textMerge(ctx, base, ours, theirs);
}

export async function run(ctx: Context, args: ArgsOf<'merge-driver'>): Promise<Outcome> {
  const [base, ours, theirs, roadmap] = args.positionals;
  const kind = itemKind(roadmap);
  if (kind === 'handoff' || kind === 'pin') return itemMerge(ctx, base, ours, theirs, roadmap);
  // .gitattributes is committed: a line such as `* merge=handoff` must not let us write a
  // roadmap over some other file. Anything but the roadmap gets git's own text merge.
  if (roadmap !== ctx.config.roadmap) {
    ctx.stderr(
      `handoff: merge driver: ${roadmap} is not a handoff, a pin or the roadmap (${ctx.config.roadmap}); merging it as text (a .gitattributes line routes it here)`,
    );
    return textMerge(ctx, base, ours, theirs);
  }
  try {
    const git = await ctx.git();
    const sides = await findSides(ctx, git);
    if (!sides) {
      ctx.stderr(
        `handoff: merge driver: cannot tell which commit is being merged; merging ${roadmap} as text ('handoff roadmap' regenerates it after)`,
      );
      return await textMerge(ctx, base, ours, theirs);
    }
    const [o, a, b] = await Promise.all([
      git.treeBlobs(sides.base, HANDOFF_DIR),
      git.treeBlobs('HEAD', HANDOFF_DIR),
      git.treeBlobs(sides.theirs, HANDOFF_DIR),
    ]);
    const opened = await openCache(ctx.cacheFile);
    const { files } = await git.filesOf(mergeMaps(o, a, b), opened.cache);
    await mergeBothChanged(git, files, o, a, b);
    const { content } = await renderTree(files, roadmap, opened);
    await fs.writeFile(ours, content);
    ctx.stderr(`handoff: regenerated ${roadmap} for the merge instead of merging its text`);
    return;
  } catch (error) {
    ctx.stderr(
      `handoff: warning: merge driver failed (${(error as Error).message.split('\n')[0]}); merging ${roadmap} as text`,
    );
    return await textMerge(ctx, base, ours, theirs);
  }
}
