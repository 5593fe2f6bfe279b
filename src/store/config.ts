// .handoff/config.yml: every key optional. Unknown keys are reported, not fatal, so a
// config written by a newer version still works with an older one.
import { FileFormatError } from '../core/errors.js';
import { DEFAULT_LLM, parseLlmConfig, type LlmConfig } from './llm-block.js';

export interface Config {
  /** Branch whose merge-base starts a new handoff's file list; auto-detected when unset. */
  default_branch?: string;
  /** Commit subjects since the base listed under Completed in a draft. */
  draft_commits: number;
  /** A wholly untracked directory with more files than this is listed as one entry. */
  untracked_dir_files: number;
  /** Model drafting (`handoff new --llm`); see llm-block.ts. */
  llm: LlmConfig;
  /** Percent of the context window above which `handoff meter` recommends a handoff. */
  meter_threshold: number;
  /** Context window when neither the log nor the model name tells it. */
  context_window: number;
  /** Tokens of the latest user messages kept verbatim in a draft. */
  recent_user_tokens: number;
  /** Where `handoff roadmap` writes, relative to the repository root. */
  roadmap: string;
  /** Tokens of the resume prompt past the pins (resume/budget.ts fills it in store/sections.ts's order). */
  resume_tokens: number;
}

// A configured path or name comes from a committed file: a newline in it would write a line
// of its own into .gitattributes, any other control character reaches a terminal or git.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// Any path segment named .git (case-folded, as macOS and Windows file systems fold it) is git's, never ours to write.
const GIT_DIR = /(^|\/)\.git(\/|$)/i;

/** Every default, applied once, here: commands read `ctx.config.<key>` as it is. */
const DEFAULT_CONFIG: Readonly<Config> = {
  draft_commits: 20,
  untracked_dir_files: 20,
  llm: DEFAULT_LLM,
  meter_threshold: 85,
  context_window: 200_000,
  recent_user_tokens: 4_000,
  roadmap: '.handoff/ROADMAP.md',
  resume_tokens: 2_500,
};

export interface Parsed<T> {
  value: T;
  warnings: string[];
}

const wholeNumber = (file: string, key: string, raw: unknown): number => {
  if (!Number.isInteger(raw) || (raw as number) < 0)
    throw new FileFormatError(file, `${key} must be a whole number, e.g. ${key}: 20`);
  return raw as number;
};

const positive = (
  file: string,
  key: 'meter_threshold' | 'context_window' | 'recent_user_tokens' | 'resume_tokens',
  raw: unknown,
): number => {
  const ok = typeof raw === 'number' && Number.isFinite(raw) && raw > 0 && (key !== 'meter_threshold' || raw <= 100);
  if (!ok)
    throw new FileFormatError(
      file,
      `${key} must be a positive number${key === 'meter_threshold' ? ' up to 100, e.g. meter_threshold: 85' : `, e.g. ${key}: ${DEFAULT_CONFIG[key]}`}`,
    );
  return raw as number;
};

/** Comments and blank lines only, as `handoff init` writes the file: the defaults, known without YAML. */
const COMMENTS_ONLY = /^(?:[ ]*(?:#[^\0-\x08\x0a-\x1f\x7f]*)?\r?\n)*[ ]*(?:#[^\0-\x08\x0a-\x1f\x7f]*)?$/;

/** The file's settings; the YAML library (heavy to load) only when the file sets something. */
export async function parseConfig(text: string | undefined, file: string): Promise<Parsed<Config>> {
  if (text === undefined || COMMENTS_ONLY.test(text)) return configFrom({}, file);
  const { parseYamlFile } = await import('./frontmatter.js');
  return configFrom(parseYamlFile(text, file), file);
}

/** Settings from the file's parsed data; unknown keys are warnings. */
export function configFrom(data: Record<string, unknown>, file: string): Parsed<Config> {
  const value: Config = { ...DEFAULT_CONFIG };
  const warnings: string[] = [];
  for (const [key, raw] of Object.entries(data)) {
    if (raw === null || raw === undefined) continue;
    switch (key) {
      case 'default_branch':
        if (typeof raw !== 'string' || raw.trim() === '' || CONTROL.test(raw) || raw.trim().startsWith('-'))
          throw new FileFormatError(file, `default_branch must be a branch name, e.g. default_branch: main`);
        value.default_branch = raw.trim();
        break;
      case 'draft_commits':
      case 'untracked_dir_files':
        value[key] = wholeNumber(file, key, raw);
        break;
      case 'meter_threshold':
      case 'context_window':
      case 'recent_user_tokens':
      case 'resume_tokens':
        value[key] = positive(file, key, raw);
        break;
      case 'llm':
        value.llm = parseLlmConfig(raw, file, warnings);
        break;
      case 'roadmap':
        if (
          typeof raw !== 'string' ||
          CONTROL.test(raw) ||
          !/^[^/\\][^\\]*\.md$/.test(raw.trim()) ||
          /(^|\/)\.\.(\/|$)/.test(raw) ||
          GIT_DIR.test(raw.trim().replace(/^\.\//, ''))
        ) {
          throw new FileFormatError(
            file,
            `roadmap must be a .md path inside the repository, relative to its root, outside .git/ and on one line, e.g. roadmap: ROADMAP.md`,
          );
        }
        value.roadmap = raw.trim().replace(/^\.\//, '');
        break;
      default:
        warnings.push(`${file}: unknown setting '${key}' ignored`);
    }
  }
  return { value, warnings };
}
