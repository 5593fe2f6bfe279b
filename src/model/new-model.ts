// `handoff new --llm`: the model path. Builds the request from the deterministic draft
// and what else is known, calls the model, verifies the answer, and merges it into the
// draft. Any failure ends in the deterministic draft with one line saying why; nothing
// is written until the caller has the final body.
import type { ArgsOf } from '../command/spec.js';
import { plural } from '../command/output.js';
import type { Context } from '../command/context.js';
import type { LlmConfig } from '../store/llm-block.js';
import { chooseModel, userLlm, type Endpoint, type ModelChoice } from './llm-config.js';
import { parseAnswer, type ModelAnswer } from './model-answer.js';
import type { ModelInput, TranscriptPart } from './model-input.js';
import { buildPrompt, type ChatMessage, type Prompt } from './model-prompt.js';
import { mergeDraft, verifyAnswer } from './model-verify.js';
import { activePins, pinsInPlay } from '../store/pin-scope.js';
import { estimateTokens } from '../transcripts/tokens.js';
import type { JsonMode } from './model.js';
import { loadPins } from '../store/store.js';
import { readTemplate } from '../store/templates.js';

export interface ModelRun {
  input: ModelInput;
  llm: LlmConfig;
  endpoint: Endpoint;
  dryRun: boolean;
  stdout: (text: string) => void;
  stderr: (line: string) => void;
}

export interface ModelStats {
  /** Tokens in the request finally sent (or that would be sent). */
  tokens: number;
  omittedTokens: number;
  /** Milliseconds spent waiting on HTTP, for the figures. */
  waitMs: number;
  outcome: 'model' | 'fallback' | 'dry-run';
  unverified: number;
}

function describe(p: Prompt): string {
  const left =
    p.omittedTokens > 0
      ? `${p.omittedTokens} tokens left out (${plural(p.omittedUserMessages, 'older user message')}, ${plural(p.omittedEvents, 'older event')})`
      : 'nothing left out';
  return `${p.tokens} tokens, ${left}${p.redactions ? `, ${plural(p.redactions, 'secret')} redacted` : ''}`;
}

/** The whole model path with its dependencies explicit, so tests and benchmarks can run it in-process. */
export async function draftWithModel(run: ModelRun): Promise<{ body: string | null; stats: ModelStats }> {
  const { input, llm, endpoint, stderr } = run;
  const [system, request, model] = await Promise.all([
    readTemplate('model-system.md'),
    readTemplate('model-request.md'),
    import('./model.js'),
  ]);
  const count = estimateTokens;
  const templates = { system, request };
  let prompt = buildPrompt(input, templates, llm.context_tokens, count);
  const stats: ModelStats = {
    tokens: prompt.tokens,
    omittedTokens: prompt.omittedTokens,
    waitMs: 0,
    outcome: 'fallback',
    unverified: 0,
  };
  const call = {
    baseURL: endpoint.baseURL,
    apiKey: endpoint.apiKey,
    model: endpoint.model ?? '(no model configured)',
    timeoutMs: llm.timeout * 1000,
    retries: llm.retries,
    backoffMs: llm.backoff_ms,
    maxOutputTokens: llm.max_output_tokens,
  };
  if (run.dryRun) {
    run.stdout(`${JSON.stringify(model.requestBody(call, prompt.messages, 'json_schema'), null, 2)}\n`);
    const to = endpoint.model ? `model ${endpoint.model}` : 'the model (none configured yet)';
    stderr(
      `handoff: dry run: nothing sent; the request (${describe(prompt)}) would go to ${to} at ${endpoint.baseURL ?? 'the OpenAI API'}`,
    );
    return { body: null, stats: { ...stats, outcome: 'dry-run' } };
  }
  const fallback = (why: string) => {
    stderr(`handoff: warning: ${why}; using the deterministic draft`);
    return { body: input.draft, stats };
  };
  if (!endpoint.model)
    return fallback(
      'no model configured (set llm.model in .handoff/config.yml, git config handoff.model or HANDOFF_MODEL)',
    );
  if (!endpoint.baseURL && endpoint.apiKey === 'not-needed')
    return fallback(
      'no endpoint configured (set git config handoff.baseUrl or OPENAI_BASE_URL, or OPENAI_API_KEY for the OpenAI API)',
    );

  stderr(`handoff: asking ${call.model}: ${describe(prompt)}`);
  const { startSpinner } = await import('./spinner.js');
  let mode: JsonMode = 'json_schema';
  let messages: ChatMessage[] = prompt.messages;
  let answer: ModelAnswer | undefined;
  let invalidOnce = false;
  let shrinks = 0;
  while (!answer) {
    const spinner = startSpinner(`waiting for ${call.model}`);
    const started = Date.now();
    let reply: string;
    let cut = false;
    try {
      const completion = await model.complete(call, messages, mode, {
        retrying: (why, wait, attempt) => {
          spinner.clear();
          stderr(`handoff: ${why}; retry ${attempt} of ${call.retries} in ${(wait / 1000).toFixed(1)} s`);
        },
      });
      reply = completion.content;
      cut = completion.finishReason === 'length';
    } catch (error) {
      if (!(error instanceof model.ModelFailure)) throw error;
      if (error.kind === 'unsupported-format') {
        mode = mode === 'json_schema' ? 'json_object' : 'none';
        stderr(
          mode === 'json_object'
            ? 'handoff: the server does not take a JSON schema; asking in JSON mode instead'
            : 'handoff: the server does not take JSON mode; asking for plain JSON text instead',
        );
        continue;
      }
      const smaller =
        error.kind === 'context-length' && shrinks < 3
          ? buildPrompt(input, templates, Math.floor(prompt.tokens * 0.6), count)
          : undefined;
      // Only the transcript can be dropped; when nothing is left to drop, stop.
      if (smaller && smaller.tokens < prompt.tokens) {
        shrinks++;
        prompt = smaller;
        messages = prompt.messages;
        stats.tokens = prompt.tokens;
        stats.omittedTokens = prompt.omittedTokens;
        stderr(
          `handoff: the model's context is smaller than the request; dropping the oldest material: ${describe(prompt)}`,
        );
        continue;
      }
      return fallback(`the model call failed: ${error.message}`);
    } finally {
      spinner.stop();
      stats.waitMs += Date.now() - started;
    }
    const parsed = parseAnswer(reply);
    if (parsed.ignored.length)
      stderr(
        `handoff: warning: ignored ${parsed.ignored.map((k) => `'${k}'`).join(', ')} in the model's answer (pins come only from .handoff/pins)`,
      );
    if (parsed.value) {
      answer = parsed.value;
      break;
    }
    if (cut)
      parsed.error = `${parsed.error}; the answer was cut at ${call.maxOutputTokens} tokens (llm.max_output_tokens), so be briefer`;
    if (invalidOnce) return fallback(`the model's answer was invalid twice (${parsed.error})`);
    invalidOnce = true;
    stderr(`handoff: the model's answer was invalid (${parsed.error}); asking once more`);
    messages = [
      ...messages,
      { role: 'assistant', content: reply },
      {
        role: 'user',
        content: `That answer is invalid: ${parsed.error}. Answer again with only the JSON object described in the instructions.`,
      },
    ];
  }
  const verification = verifyAnswer(answer, input);
  const items = Object.values(verification.sections).reduce((n, list) => n + list.length, 0);
  const body = mergeDraft(
    input.draft,
    verification,
    `Drafted with ${call.model} from ${stats.tokens} tokens of git facts${input.transcript ? ' and transcript' : ''}; items marked unverified are not backed by git or the transcript.`,
  );
  stats.outcome = 'model';
  stats.unverified = verification.unverified;
  stderr(
    `handoff: the model added ${plural(items, 'item')}${verification.unverified ? `; ${verification.unverified} unverified, marked in the draft` : ', all verified'}`,
  );
  return { body, stats };
}

/**
 * Whether `new` takes the model path, and towards which endpoint: --dry-run, --llm/--no-llm,
 * else the user's own mode (HANDOFF_LLM, git config handoff.llm), else the committed
 * llm.mode within the trust boundary of chooseModel.
 */
async function modelChoice(ctx: Context, args: ArgsOf<'new'>): Promise<ModelChoice> {
  const llm = ctx.config.llm;
  // Git config is the user's (global, system, or .git/config, which is never committed).
  const user = userLlm(ctx.env, await (await ctx.git()).handoffSettings());
  const flag =
    args.values['dry-run'] === true ? true : args.values['message-file'] !== undefined ? false : args.values.llm;
  return chooseModel(flag, llm, user, ctx.rel(ctx.configFile));
}

/**
 * Whether `new` takes the model path, asked of git config when it may (undefined when it
 * cannot): `new` asks it as it starts, so that git answers while the draft is made.
 */
export function askModelChoice(ctx: Context, args: ArgsOf<'new'>): Promise<ModelChoice> | undefined {
  // A body given with -F replaces any draft: no point asking a model for one (nor git config).
  if (args.values['dry-run'] !== true && (args.values['message-file'] !== undefined || args.values.llm === false))
    return undefined;
  const asked = modelChoice(ctx, args);
  asked.catch(() => {}); // awaited when the draft is made; a failure surfaces there
  return asked;
}

/**
 * The draft `new` should offer: the model's when asked for, else the deterministic one.
 * Null means --dry-run: the request was printed and nothing is to be written.
 */
export async function maybeModelDraft(
  ctx: Context,
  args: ArgsOf<'new'>,
  facts: Omit<ModelInput, 'pins'>,
  transcript?: TranscriptPart,
  asked: Promise<ModelChoice> | undefined = askModelChoice(ctx, args),
): Promise<string | null> {
  const dryRun = args.values['dry-run'] === true;
  if (!asked) return facts.draft;
  const choice = await asked;
  if (choice.note) ctx.stderr(`handoff: ${choice.note}`);
  if (!choice.use) return dryRun ? null : facts.draft;
  const llm = ctx.config.llm;
  const [pins, repoPaths] = await Promise.all([loadPins(ctx), ctx.git().then((git) => git.trackedPaths())]);
  const inPlay = await pinsInPlay(
    activePins(pins.items),
    facts.files.map((f) => f.path),
  );
  const input: ModelInput = {
    ...facts,
    pins: inPlay.map((p) => ({ id: p.meta.id, text: p.text })),
    repoPaths,
    ...(transcript ? { transcript } : {}),
  };
  const { body } = await draftWithModel({
    input,
    llm,
    endpoint: choice.endpoint,
    dryRun,
    stdout: ctx.stdout,
    stderr: ctx.stderr,
  });
  return body;
}
