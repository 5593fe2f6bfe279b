// `handoff resume`: print the resume prompt (--json: with its parts); build.ts builds it.
import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { redactionNotice } from '../security/notice.js';
import { printJson } from '../command/output.js';
import { buildResume } from './build.js';

export async function run(ctx: Context, args: ArgsOf<'resume'>): Promise<Outcome> {
  const built = await buildResume(ctx, args.positionals[0], args.values['allow-secret'] === true);
  const { prompt, redacted } = built;
  const notice = redactionNotice(redacted, 'the resume prompt', 'handoff resume --allow-secret prints them');
  if (notice) ctx.stderr(notice);
  if (built.parts.id === null) {
    const n = built.parts.pins.length;
    ctx.stderr(`handoff: ${built.parts.reason}; printing the ${n} pinned constraint${n === 1 ? '' : 's'} alone`);
  }
  if (args.values.json) {
    // Every documented key, whether or not there is a handoff: lists are [], unknowns null.
    const { parts } = built;
    printJson(ctx, {
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
    });
  } else ctx.stdout(prompt);
}
