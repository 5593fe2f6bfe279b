// .handoff/config.yml: every key optional. Unknown keys are reported, not fatal, so a
// config written by a newer version still works with an older one.
import { FileFormatError } from '../errors.js';
import { parseYamlFile } from './frontmatter.js';

export interface Config {
  /** Branch whose merge-base starts a new handoff's file list; auto-detected when unset. */
  default_branch?: string;
  /** Commit subjects since the base listed under Completed in a draft. */
  draft_commits: number;
  /** Where `handoff roadmap` writes, relative to the repository root; default .handoff/ROADMAP.md. */
  roadmap?: string;
}

export const DEFAULT_CONFIG: Config = { draft_commits: 20 };

export interface Parsed<T> {
  value: T;
  warnings: string[];
}

export function parseConfig(text: string | undefined, file: string): Parsed<Config> {
  if (text === undefined) return { value: { ...DEFAULT_CONFIG }, warnings: [] };
  const data = parseYamlFile(text, file);
  const value: Config = { ...DEFAULT_CONFIG };
  const warnings: string[] = [];
  for (const [key, raw] of Object.entries(data)) {
    if (raw === null || raw === undefined) continue;
    switch (key) {
      case 'default_branch':
        if (typeof raw !== 'string' || raw.trim() === '') throw new FileFormatError(file, `default_branch must be a branch name, e.g. default_branch: main`);
        value.default_branch = raw.trim();
        break;
      case 'draft_commits':
        if (!Number.isInteger(raw) || (raw as number) < 0) throw new FileFormatError(file, `draft_commits must be a whole number, e.g. draft_commits: 20`);
        value.draft_commits = raw as number;
        break;
      case 'roadmap':
        if (typeof raw !== 'string' || !/^[^/\\][^\\]*\.md$/.test(raw.trim()) || /(^|\/)\.\.(\/|$)/.test(raw)) {
          throw new FileFormatError(file, `roadmap must be a .md path inside the repository, relative to its root, e.g. roadmap: ROADMAP.md`);
        }
        value.roadmap = raw.trim().replace(/^\.\//, '');
        break;
      default:
        warnings.push(`${file}: unknown setting '${key}' ignored`);
    }
  }
  return { value, warnings };
}
