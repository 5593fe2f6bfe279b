// What a model-drafted handoff is built from. Everything here is data the tool already
// holds: the goal, git's facts, the deterministic draft, the active pins, and optionally
// what a transcript reader extracted from the agent session. The transcript part is
// optional so the model path works (and is tested) with git alone.
import type { FileChange } from '../store/handoff.js';

export interface TranscriptCommand {
  command: string;
  /** True only when the transcript shows the command succeeded (exit code 0 or equivalent). */
  passed: boolean;
}

export interface TranscriptPart {
  /** Every user message of the session, verbatim, oldest first: quotes are checked against these. */
  userMessages: string[];
  /** Events already pruned to plain text (tool output dropped, old turns shortened), oldest first. */
  events: string[];
  /** What deterministic extraction found. */
  extracted: {
    /** File paths the session read or changed. */
    files: string[];
    commands: TranscriptCommand[];
    /** Anything else worth passing on (decisions, todos), one line each. */
    notes: string[];
  };
}

export interface ModelInput {
  goal: string;
  files: readonly FileChange[];
  commits: ReadonlyArray<{ hash: string; subject: string }>;
  /** The deterministic draft body: the model's answer is merged into it, and it is the fallback. */
  draft: string;
  pins: ReadonlyArray<{ id: string; text: string }>;
  /** Every path git tracks: used to check the model's claims, never sent. */
  repoPaths?: readonly string[];
  transcript?: TranscriptPart;
}
