import { it } from 'vitest';
import { openTranscript } from '../src/transcripts/open.js';
import { openCodeDbSessions } from '../src/transcripts/opencode-db.js';
it('prints', async () => {
  const f = process.env.EVF!;
  const ids = f.endsWith('.db') ? (await openCodeDbSessions(f)).map((s) => s.id) : [undefined];
  for (const id of ids) {
    const o = await openTranscript(f, f, process.env.EVROOT, id);
    const out: string[] = [];
    for await (const e of o.events()) if (e.kind !== 'time') out.push(JSON.stringify(e).slice(0, 220));
    console.log(`== ${id}\n${out.join('\n')}\n ${o.agent} ${JSON.stringify(o.stats)}`);
  }
});
