// Committed text and file names carry terminal escapes (a clipboard write, a screen clear, a
// link, a title); none reaches a terminal through any command's output or error messages.
import { describe, expect, it } from 'vitest';
import { makeRepo } from './helpers.js';

const ID = '01jx7k2m9q8r4s5t6v7w8x9y0z';
const PIN = '01jx7k2m9q8r4s5t6v7w8x9y1a';
const OSC52 = '\u001b]52;c;ZWNobyBwd25lZA==\u0007';
const CLEAR = '\u001b[2J\u001b[H';
const LINK = '\u001b]8;;http://127.0.0.1/\u001b\\here\u001b]8;;\u001b\\';
const TITLE = '\u001b]0;owned\u0007';
const C1 = '\u009b2J';
const HOSTILE = `ship ${OSC52}${CLEAR}${LINK}${TITLE}${C1} over\rhidden`;
// Raw controls a terminal acts on: C0 but tab and newline, DEL, C1, and a carriage return not ending a line.
const RAW = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/;

describe('control characters never reach a terminal', () => {
  it('list, show, pins, resume, roadmap --check and check print them escaped', () => {
    const repo = makeRepo();
    expect(repo.handoff(['init']).code).toBe(0);
    repo.commit('init');
    repo.write(
      `.handoff/handoffs/${ID}.md`,
      `---\nid: "${ID}"\ngoal: ${JSON.stringify(HOSTILE)}\nstatus: "open"\ncreated: "2026-01-05T10:00:00.000Z"\nauthor: "A <a@example.com>"\nbranch: "main"\nbase: null\nhead: null\nparent: null\nfiles: []\n---\n## Goal\n\n${HOSTILE}\n`,
    );
    repo.write(`.handoff/pins/${PIN}.md`, `---\nid: "${PIN}"\ncreated: "2026-01-05T10:00:00.000Z"\n---\n${HOSTILE}\n`);
    // A file whose name carries escapes is reported by name.
    repo.write(`.handoff/handoffs/${TITLE}x.md`, 'not a handoff\n');
    repo.commit('hostile');
    const runs = [
      ['list'],
      ['show', ID],
      ['pins'],
      ['resume'],
      ['roadmap', '--check'],
      ['check'],
      ['check', '--base', 'HEAD~1'],
      ['list', '--json'],
    ];
    for (const args of runs) {
      const r = repo.handoff(args);
      expect(r.stderr, args.join(' ')).not.toContain('internal error');
      expect(RAW.test(r.stdout), `${args.join(' ')} stdout`).toBe(false);
      expect(RAW.test(r.stderr), `${args.join(' ')} stderr`).toBe(false);
    }
    // What was escaped is still there to read, and --json still parses to the original text.
    expect(repo.handoff(['show', ID]).stdout).toContain('\\u001b]52;c;');
    const listed = JSON.parse(repo.handoff(['list', '--json']).stdout).handoffs;
    expect(listed[0].goal).toBe(HOSTILE);
    expect(repo.handoff(['list']).stderr).toContain('\\u001b]0;owned\\u0007x.md');
  });
});
