// Rendering the roadmap from a tree and reading/writing the file itself.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../store/config.js';
import { DEFAULT_ROADMAP, renderRoadmap } from './render.js';
import { parseTree, type Tree, type TreeFile } from '../store/tree.js';
import { readText, replaceFileAtomic } from '../store/fs.js';
import { openParseCache, type OpenCache } from '../store/parse-cache.js';
import { readTemplate } from '../store/templates.js';
import { assertPlainFileInside } from '../security/guard.js';

export function roadmapPath(config: Config): string {
  return config.roadmap ?? DEFAULT_ROADMAP;
}

export interface Rendered {
  tree: Tree;
  content: string;
}

export function openCache(root: string, env: NodeJS.ProcessEnv): Promise<OpenCache> {
  return openParseCache(root, env, toolVersion());
}

/** Parses through an open cache (saving it) and renders. */
export async function renderTree(files: readonly TreeFile[], roadmap: string, opened: OpenCache): Promise<Rendered> {
  const tree = parseTree(files, opened.cache);
  const [template] = await Promise.all([readTemplate('roadmap.md'), opened.save()]);
  return { tree, content: renderRoadmap(template, tree, roadmap) };
}

/** Parses (through the cache in the git dir) and renders. */
export async function renderFiles(files: readonly TreeFile[], roadmap: string, root: string, env: NodeJS.ProcessEnv): Promise<Rendered> {
  return renderTree(files, roadmap, await openCache(root, env));
}

let cachedVersion: string | undefined;
/**
 * What the cached parse results depend on: the package version, and the build of the
 * parsers (their modification times), so a rebuilt or upgraded tool never reads entries
 * an older parser wrote.
 */
function toolVersion(): string {
  if (cachedVersion === undefined) {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const builds = ['../store/handoff.js', '../store/pin.js', '../store/tree.js', '../store/frontmatter.js'].map((f) => statSync(new URL(f, import.meta.url)).mtimeMs);
    cachedVersion = [pkg.version, ...builds].join(':');
  }
  return cachedVersion;
}

/** The roadmap as it is in the work tree; undefined when missing; refused when it, or its folder, is a link leaving the repository. */
export async function readRoadmap(root: string, roadmap: string): Promise<string | undefined> {
  await assertPlainFileInside(root, roadmap);
  return readText(path.join(root, roadmap));
}

/** Writes the roadmap when it differs; returns whether it did. */
export async function writeRoadmap(root: string, roadmap: string, content: string): Promise<boolean> {
  const file = path.join(root, roadmap);
  if ((await readRoadmap(root, roadmap)) === content) return false;
  await replaceFileAtomic(file, content);
  return true;
}
