// Rendering the roadmap from a tree and reading/writing the file itself.
import path from 'node:path';
import type { Config } from '../core/config.js';
import { DEFAULT_ROADMAP, renderRoadmap } from '../core/roadmap.js';
import { parseTree, type Tree, type TreeFile } from '../core/tree.js';
import { readText, replaceFileAtomic } from './fs.js';
import { readTemplate } from './templates.js';

export function roadmapPath(config: Config): string {
  return config.roadmap ?? DEFAULT_ROADMAP;
}

export interface Rendered {
  tree: Tree;
  content: string;
}

export async function renderFiles(files: readonly TreeFile[], roadmap: string): Promise<Rendered> {
  const tree = parseTree(files);
  return { tree, content: renderRoadmap(await readTemplate('roadmap.md'), tree, roadmap) };
}

/** Writes the roadmap when it differs; returns whether it did. */
export async function writeRoadmap(root: string, roadmap: string, content: string): Promise<boolean> {
  const file = path.join(root, roadmap);
  if ((await readText(file)) === content) return false;
  await replaceFileAtomic(file, content);
  return true;
}
