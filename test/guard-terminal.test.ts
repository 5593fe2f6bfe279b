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

describe('bidirectional controls and carriage returns in what is printed', () => {
  // Every bidirectional embedding, override and isolate, and the line and paragraph
  // separators, escaped; the bidirectional marks of right-to-left writing, as written.
  const BIDI = [0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];
  const MARKS = '\u061c\u200e\u200f';
  const raw = BIDI.map((c) => String.fromCharCode(c)).join('') + MARKS;
  const shown = BIDI.map((c) => `\\u${c.toString(16).padStart(4, '0')}`).join('') + MARKS;
  const pin = (id: string, text: string) =>
    `---\nid: "${id}"\ncreated: "2026-01-05T10:00:00.000Z"\nauthor: "A <a@example.com>"\nstatus: "active"\n---\n${text}\n`;

  it('pins and resume print them escaped, inside the line; --json keeps the text', () => {
    const repo = makeRepo();
    const TROJAN = '01jx7k2m9q8r4s5t6v7w8x9y2a';
    const CR = '01jx7k2m9q8r4s5t6v7w8x9y3a';
    const CRLF = '01jx7k2m9q8r4s5t6v7w8x9y4a';
    repo.write(`.handoff/pins/${TROJAN}.md`, pin(TROJAN, `abc${raw}def`));
    repo.write(`.handoff/pins/${CR}.md`, pin(CR, 'cr\rX'));
    repo.write(`.handoff/pins/${CRLF}.md`, pin(CRLF, 'crlf\r\nY'));
    repo.commit('pins');
    const pins = repo.handoff(['pins']);
    expect(pins.code).toBe(0);
    expect(pins.stdout).toBe(
      `01jx7k2m9q8r4s5t6v7w8x9y2  2026-01-05  A <a@example.com>  (active)\n    abc${shown}def\n\n` +
        '01jx7k2m9q8r4s5t6v7w8x9y3  2026-01-05  A <a@example.com>  (active)\n    cr\\u000dX\n\n' +
        '01jx7k2m9q8r4s5t6v7w8x9y4  2026-01-05  A <a@example.com>  (active)\n    crlf\r\n    Y\n',
    );
    expect(repo.handoff(['resume']).stdout).toContain(`\nabc${shown}def\n`);
    const json = repo.handoff(['pins', '--json']).stdout;
    expect(json).toContain(`"abc${shown}def\\n"`);
    const listed = JSON.parse(json).pins;
    expect(listed.map((p: { text: string }) => p.text)).toEqual([`abc${raw}def\n`, 'cr\rX\n', 'crlf\r\nY\n']);
  });
});
