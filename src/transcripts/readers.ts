// The line-based readers by format (OpenCode is opened separately: it is a database; Cline too: its
// working directory is in the metadata file beside the conversation).
import { readAider } from './aider.js';
import { readClaudeCode } from './claude-code.js';
import { readCodex } from './codex.js';
import { readCopilot } from './copilot.js';
import type { Agent, Lines, ReadStats, TranscriptEvent } from './events.js';
import { readGeminiCli } from './gemini-cli.js';
import { readPi } from './pi.js';
import { readQwen } from './qwen.js';
import { readSpecStory } from './specstory.js';

type Reader = (lines: Lines, stats: ReadStats) => AsyncIterable<TranscriptEvent>;

export const READERS: Record<Exclude<Agent, 'opencode' | 'cline'>, Reader> = {
  'claude-code': readClaudeCode,
  codex: readCodex,
  'gemini-cli': readGeminiCli,
  pi: readPi,
  aider: readAider,
  specstory: readSpecStory,
  copilot: readCopilot,
  qwen: readQwen,
};
