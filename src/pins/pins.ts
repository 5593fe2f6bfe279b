import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { activePins } from '../store/pin-scope.js';
import { shortId } from '../store/id.js';
import { loadPins, warnProblems } from '../store/store.js';
import { printJson, skippedJson } from '../command/output.js';
import { scrubForPrint } from '../security/secrets.js';

export async function run(ctx: Context, args: ArgsOf<'pins'>): Promise<Outcome> {
  const loaded = await loadPins(ctx);
  const { problems } = loaded;
  // Pins are stored verbatim, but one written by hand (or before a rule existed) may hold a
  // secret: what is printed is redacted, and the file keeps its bytes.
  const { value: items, notice } = scrubForPrint(loaded.items, 'the pins');
  if (notice) ctx.stderr(notice);
  const active = new Set(activePins(items));
  const supersededBy = new Map(items.filter((p) => p.meta.supersedes).map((p) => [p.meta.supersedes!, p.meta.id]));
  const shown = args.values.all ? items : items.filter((p) => active.has(p));
  // A retired pin stays retired, whatever supersedes it (a hand edit or an older build could).
  const state = (id: string, status: string) => (status === 'active' && supersededBy.has(id) ? 'superseded' : status);
  if (args.values.json) {
    printJson(ctx, {
      pins: shown.map((p) => ({
        ...p.meta,
        // Every key docs/json.md names is there; what a pin's file leaves out is null.
        scope: p.meta.scope ?? null,
        supersedes: p.meta.supersedes ?? null,
        retired: p.meta.retired ?? null,
        reason: p.meta.reason ?? null,
        status: state(p.meta.id, p.meta.status),
        superseded_by: supersededBy.get(p.meta.id) ?? null,
        file: p.file,
        text: p.text,
      })),
      skipped: skippedJson(problems),
    });
  } else if (shown.length === 0) {
    ctx.stdout(
      items.length === 0
        ? 'No pins yet. Add one: handoff pin "<constraint>"\n'
        : 'No active pins (handoff pins --all shows the retired ones).\n',
    );
  } else {
    const ids = items.map((p) => p.meta.id);
    const blocks = shown.map((p) => {
      const tags = [
        state(p.meta.id, p.meta.status),
        p.meta.scope ? `scope ${p.meta.scope.join(', ')}` : '',
        p.meta.supersedes ? `supersedes ${shortId(p.meta.supersedes, ids)}` : '',
      ]
        .filter(Boolean)
        .join('; ');
      // Indented at each newline only: a multiline ^ would also start a line after a carriage
      // return or a Unicode separator, which reach the terminal escaped, inside the line.
      const text = `    ${p.text.replace(/\n$/, '').replaceAll('\n', '\n    ')}`;
      return `${shortId(p.meta.id, ids)}  ${p.meta.created.slice(0, 10)}  ${p.meta.author}  (${tags})\n${text}`;
    });
    ctx.stdout(`${blocks.join('\n\n')}\n`);
  }
  return warnProblems(ctx, problems) ? 'failure' : undefined;
}
