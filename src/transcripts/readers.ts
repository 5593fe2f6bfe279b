// The line-based readers by format (OpenCode is opened separately: it is a database).
import { readAider } from './aider.js';
import { readClaudeCode } from './claude-code.js';
import { readCline } from './cline.js';
import { readCodex } from './codex.js';
import { readCopilot } from './copilot.js';
import type { Agent, Lines, ReadStats, TranscriptEvent } from './events.js';
import { readGeminiCli } from './gemini-cli.js';
import { readPi } from './pi.js';
import { readQwen } from './qwen.js';
import { readSpecStory } from './specstory.js';

type Reader = (lines: Lines, stats: ReadStats) => AsyncIterable<TranscriptEvent>;

export const READERS: Record<Exclude<Agent, 'opencode'>, Reader> = {
  'claude-code': readClaudeCode,
  codex: readCodex,
  'gemini-cli': readGeminiCli,
  pi: readPi,
  aider: readAider,
  specstory: readSpecStory,
  copilot: readCopilot,
  cline: readCline,
  qwen: readQwen,
};
