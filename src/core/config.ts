// .handoff/config.yml: every key optional. Unknown keys are reported, not fatal, so a
// config written by a newer version still works with an older one.
import { FileFormatError } from '../errors.js';
import { parseYamlFile } from './frontmatter.js';
import { parseLlmConfig, type LlmConfig } from './llm-config.js';

export interface Config {
  /** Branch whose merge-base starts a new handoff's file list; auto-detected when unset. */
  default_branch?: string;
  /** Commit subjects since the base listed under Completed in a draft. */
  draft_commits: number;
  /** Model drafting (`handoff new --llm`); absent means the defaults in llm-config.ts. */
  llm?: LlmConfig;
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
      case 'llm':
        value.llm = parseLlmConfig(raw, file, warnings);
        break;
      default:
        warnings.push(`${file}: unknown setting '${key}' ignored`);
    }
  }
  return { value, warnings };
}
