// The line-based readers by format (OpenCode is opened separately: it is a database).
import { readAider } from './aider.js';
import { readClaudeCode } from './claude-code.js';
import { readCodex } from './codex.js';
import type { Lines, ReadStats, TranscriptEvent } from './events.js';
import { readGeminiCli } from './gemini-cli.js';
import { readPi } from './pi.js';
import { readSpecStory } from './specstory.js';

type Reader = (lines: Lines, stats: ReadStats) => AsyncIterable<TranscriptEvent>;

export const READERS: Record<'claude-code' | 'codex' | 'gemini-cli' | 'pi' | 'aider' | 'specstory', Reader> = {
  'claude-code': readClaudeCode,
  codex: readCodex,
  'gemini-cli': readGeminiCli,
  pi: readPi,
  aider: readAider,
  specstory: readSpecStory,
};
