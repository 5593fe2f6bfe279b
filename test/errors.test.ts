// How an error reaches the user: one line. What the system refused about a file (its
// permissions, a read-only or full disk) names the file and the reason; only a fault of the
// program itself is an internal error.
import { describe, expect, it } from 'vitest';
import { report } from '../src/core/errors.js';

function reported(error: unknown): { code: number; lines: string[] } {
  const lines: string[] = [];
  return { code: report(error, (line) => lines.push(line), false), lines };
}

describe('an error as the user reads it', () => {
  it('names the file and the reason when the system refuses it, and keeps internal errors for faults', () => {
    const refused = (code: string, syscall: string) =>
      Object.assign(new Error(`${code}: refused, ${syscall} '/r/.git/handoff.lock'`), {
        code,
        syscall,
        path: '/r/.git/handoff.lock',
      });
    expect(reported(refused('EACCES', 'open'))).toEqual({
      code: 1,
      lines: ['handoff: /r/.git/handoff.lock: cannot open it: permission denied'],
    });
    expect(reported(refused('EROFS', 'rename')).lines).toEqual([
      'handoff: /r/.git/handoff.lock: cannot rename it: read-only file system',
    ]);
    // Not a refusal: a file that is not there, or an error without a file, is still the program's to explain.
    expect(reported(refused('ENOENT', 'open')).lines[0]).toMatch(/^handoff: internal error: ENOENT/);
    expect(reported(new TypeError('x is undefined')).lines).toEqual([
      'handoff: internal error: x is undefined (HANDOFF_DEBUG=1 shows where)',
    ]);
  });
});
