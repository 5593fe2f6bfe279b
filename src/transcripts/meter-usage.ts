// How full a session's context window is, from the usage the agent recorded.
// The window comes from the log when recorded (Codex), else from the model's name,
// else from the config.

export interface Meter {
  tokens: number;
  window: number;
  windowSource: 'log' | 'model' | 'config';
  percent: number;
  threshold: number;
  above: boolean;
}

// Context windows by model family, for logs that do not record theirs.
const WINDOWS: ReadonlyArray<[RegExp, number]> = [
  [/\[1m\]|-1m\b/i, 1_000_000],
  [/^claude/i, 200_000],
  [/^gemini/i, 1_048_576],
  [/^gpt-5/i, 272_000],
  [/^gpt-4\.1/i, 1_047_576],
  [/^(gpt-4o|o[134])/i, 128_000],
];

function modelWindow(model: string | undefined): number | undefined {
  if (!model) return undefined;
  return WINDOWS.find(([re]) => re.test(model))?.[1];
}

export function computeMeter(
  usage: { contextTokens: number; window?: number; model?: string } | undefined,
  configWindow: number,
  threshold: number,
): Meter | undefined {
  if (!usage) return undefined;
  const byModel = modelWindow(usage.model);
  const [window, windowSource] = usage.window
    ? [usage.window, 'log' as const]
    : byModel
      ? [byModel, 'model' as const]
      : [configWindow, 'config' as const];
  const percent = Math.round((usage.contextTokens / window) * 1000) / 10;
  return { tokens: usage.contextTokens, window, windowSource, percent, threshold, above: percent >= threshold };
}
