// `handoff resume`: print the resume prompt (--json: with its parts); build.ts builds it.
import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { redactionNotice } from '../security/notice.js';
import { printJson, skippedJson } from '../command/output.js';
import type { Problem } from '../store/tree.js';
import { buildResume, NothingToResume, type Resume } from './build.js';
import { pinsOnlyParts, type ResumeParts } from './prompt.js';

export async function run(ctx: Context, args: ArgsOf<'resume'>): Promise<Outcome> {
  let built: Resume;
  try {
    built = await buildResume(ctx, args.positionals[0], args.values['allow-secret'] === true);
  } catch (error) {
    if (!(error instanceof NothingToResume && args.values.json)) throw error;
    // A script reading --json gets its object, with the reason, even with nothing to resume;
    // the exit status still says there was nothing (README's exit codes).
    ctx.stderr(`handoff: ${error.message}`);
    printJson(ctx, resumeJson('', pinsOnlyParts([], error.message), error.skipped));
    return 'failure';
  }
  const { prompt, redacted } = built;
  const notice = redactionNotice(redacted, 'the resume prompt', 'handoff resume --allow-secret prints them');
  if (notice) ctx.stderr(notice);
  if (built.parts.id === null) {
    const n = built.parts.pins.length;
    ctx.stderr(`handoff: ${built.parts.reason}; printing the ${n} pinned constraint${n === 1 ? '' : 's'} alone`);
  }
  if (args.values.json) printJson(ctx, resumeJson(prompt, built.parts, built.skipped ?? []));
  else ctx.stdout(prompt);
}

/** Every documented key, whether or not there is a handoff: lists are [], unknowns null. */
function resumeJson(prompt: string, parts: ResumeParts, skipped: readonly Problem[]): Record<string, unknown> {
  return {
    prompt,
    ...parts,
    pins: parts.pins.map((p) => ({ ...p, scope: p.scope ?? null })),
    since: {
      ...parts.since,
      changedCount: parts.since.changedCount ?? parts.since.changedFiles.length,
      committedSince: parts.since.committedSince ?? [],
      renamed: parts.since.renamed ?? [],
      putBack: parts.since.putBack ?? [],
    },
    reason: parts.reason ?? null,
    from: parts.from ?? null,
    skipped: skippedJson(skipped),
  };
}
