// .handoff/config.yml: every key optional. Unknown keys are reported, not fatal, so a
// config written by a newer version still works with an older one.
import { FileFormatError } from '../cli/errors.js';
import { parseLlmConfig, type LlmConfig } from '../model/llm-config.js';

export interface Config {
  /** Branch whose merge-base starts a new handoff's file list; auto-detected when unset. */
  default_branch?: string;
  /** Commit subjects since the base listed under Completed in a draft. */
  draft_commits: number;
  /** A wholly untracked directory with more files than this is listed as one entry. */
  untracked_dir_files: number;
  /** Model drafting (`handoff new --llm`); absent means the defaults in llm-config.ts. */
  llm?: LlmConfig;
  /** Transcript settings (see TranscriptConfig below); unset means the default. */
  meter_threshold?: number;
  context_window?: number;
  recent_user_tokens?: number;
  /** Where `handoff roadmap` writes, relative to the repository root; default .handoff/ROADMAP.md. */
  roadmap?: string;
}

export const DEFAULT_CONFIG: Config = { draft_commits: 20, untracked_dir_files: 20 };

export interface Parsed<T> {
  value: T;
  warnings: string[];
}

/** Comments and blank lines only, as `handoff init` writes the file: the defaults, known without YAML. */
const COMMENTS_ONLY = /^(?:[ ]*(?:#[^\0-\x08\x0a-\x1f\x7f]*)?\r?\n)*[ ]*(?:#[^\0-\x08\x0a-\x1f\x7f]*)?$/;

/** The file's settings; the YAML library (tens of milliseconds to load) only when the file sets something. */
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
        if (typeof raw !== 'string' || raw.trim() === '') throw new FileFormatError(file, `default_branch must be a branch name, e.g. default_branch: main`);
        value.default_branch = raw.trim();
        break;
      case 'draft_commits':
        if (!Number.isInteger(raw) || (raw as number) < 0) throw new FileFormatError(file, `draft_commits must be a whole number, e.g. draft_commits: 20`);
        value.draft_commits = raw as number;
        break;
      case 'untracked_dir_files':
        if (!Number.isInteger(raw) || (raw as number) < 0) throw new FileFormatError(file, `untracked_dir_files must be a whole number, e.g. untracked_dir_files: 20`);
        value.untracked_dir_files = raw as number;
        break;
      case 'llm':
        value.llm = parseLlmConfig(raw, file, warnings);
        break;
      case 'roadmap':
        if (typeof raw !== 'string' || !/^[^/\\][^\\]*\.md$/.test(raw.trim()) || /(^|\/)\.\.(\/|$)/.test(raw)) {
          throw new FileFormatError(file, `roadmap must be a .md path inside the repository, relative to its root, e.g. roadmap: ROADMAP.md`);
        }
        value.roadmap = raw.trim().replace(/^\.\//, '');
        break;
      default:
        if (TRANSCRIPT_KEYS.has(key)) (value as unknown as Record<string, unknown>)[key] = parseTranscriptConfig({ [key]: raw }, file)[key as keyof TranscriptConfig];
        else warnings.push(`${file}: unknown setting '${key}' ignored`);
    }
  }
  return { value, warnings };
}

// Transcript settings (meter and recent user turns), parsed apart from the keys above so the switch stays
// as it was: `handoff meter` and `handoff new --from`.
export interface TranscriptConfig {
  /** Percent of the context window above which `handoff meter` recommends a handoff. */
  meter_threshold: number;
  /** Context window when neither the log nor the model name tells it. */
  context_window: number;
  /** Tokens of the latest user messages kept verbatim in a draft. */
  recent_user_tokens: number;
}

export const DEFAULT_TRANSCRIPT_CONFIG: TranscriptConfig = { meter_threshold: 85, context_window: 200_000, recent_user_tokens: 4_000 };
export const TRANSCRIPT_KEYS = new Set(Object.keys(DEFAULT_TRANSCRIPT_CONFIG));

export function parseTranscriptConfig(data: Record<string, unknown>, file: string): TranscriptConfig {
  const value = { ...DEFAULT_TRANSCRIPT_CONFIG };
  for (const key of TRANSCRIPT_KEYS as Set<keyof TranscriptConfig>) {
    const raw = data[key];
    if (raw === undefined || raw === null) continue;
    const ok = typeof raw === 'number' && Number.isFinite(raw) && raw > 0 && (key !== 'meter_threshold' || raw <= 100);
    if (!ok) throw new FileFormatError(file, `${key} must be a positive number${key === 'meter_threshold' ? ' up to 100, e.g. meter_threshold: 85' : `, e.g. ${key}: ${DEFAULT_TRANSCRIPT_CONFIG[key]}`}`);
    value[key] = raw;
  }
  return value;
}
