// Rendering the roadmap from a tree and reading/writing the file itself.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../core/config.js';
import { DEFAULT_ROADMAP, renderRoadmap } from '../core/roadmap.js';
import { parseTree, type Tree, type TreeFile } from '../core/tree.js';
import { readText, replaceFileAtomic } from './fs.js';
import { openParseCache } from './parse-cache.js';
import { readTemplate } from './templates.js';

export function roadmapPath(config: Config): string {
  return config.roadmap ?? DEFAULT_ROADMAP;
}

export interface Rendered {
  tree: Tree;
  content: string;
}

/** Parses (through the cache in the git dir) and renders. */
export async function renderFiles(files: readonly TreeFile[], roadmap: string, root: string, env: NodeJS.ProcessEnv): Promise<Rendered> {
  const [{ cache, save }, template] = await Promise.all([openParseCache(root, env, toolVersion()), readTemplate('roadmap.md')]);
  const tree = parseTree(files, cache);
  await save();
  return { tree, content: renderRoadmap(template, tree, roadmap) };
}

let cachedVersion: string | undefined;
function toolVersion(): string {
  cachedVersion ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return cachedVersion;
}

/** Writes the roadmap when it differs; returns whether it did. */
export async function writeRoadmap(root: string, roadmap: string, content: string): Promise<boolean> {
  const file = path.join(root, roadmap);
  if ((await readText(file)) === content) return false;
  await replaceFileAtomic(file, content);
  return true;
}
