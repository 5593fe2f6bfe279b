// The handoff's sections are defined once (src/store/sections.ts): the editable templates
// agree with that list, and no other source file spells a section's title, so renaming a
// section is one edit there (plus the prose of docs and agent instructions).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANSWER_SCHEMA, parseAnswer } from '../src/model/model-answer.js';
import { handoffParts, renderResume } from '../src/resume/prompt.js';
import { parseHandoff, serializeHandoff } from '../src/store/handoff.js';
import { CARRIED_KEYS, MODEL_KEYS, RESUME_KEYS, SECTIONS, TITLE } from '../src/store/sections.js';

const ROOT = path.resolve(__dirname, '..');
const SRC = path.join(ROOT, 'src');
const template = (name: string) => readFileSync(path.join(ROOT, 'templates', name), 'utf8');

function sources(dir = SRC): string[] {
  return readdirSync(dir).flatMap((n) => {
    const f = path.join(dir, n);
    return statSync(f).isDirectory() ? sources(f) : f.endsWith('.ts') ? [f] : [];
  });
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The ways a title gets spelled in code: a string, a heading, bold, an object key. */
function titleLiterals(title: string): RegExp {
  const t = escapeRegExp(title);
  return new RegExp(`(['"\`])${t}\\1|#+ ${t}\\b|\\*\\*${t}\\*\\*|[{,]\\s*${t}\\s*:`);
}

describe('the section schema', () => {
  it('gives every section a distinct snake_case key and a distinct title', () => {
    const keys = SECTIONS.map((s) => s.key);
    const titles = SECTIONS.map((s) => s.title);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(titles.map((t) => t.toLowerCase())).size).toBe(titles.length);
    for (const k of keys) expect(k).toMatch(/^[a-z]+(?:_[a-z]+)*$/);
    expect(new Set(SECTIONS.map((s) => s.resume)).size).toBe(SECTIONS.length);
    expect(CARRIED_KEYS).toEqual(['completed', 'in_progress', 'next_steps', 'open_questions', 'decisions', 'tried']);
  });

  it('agrees with templates/handoff.md: the same headings in the same order, each with its placeholder', () => {
    const text = template('handoff.md');
    const headings = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(SECTIONS.map((s) => s.title));
    for (const s of SECTIONS) expect(text).toContain(`## ${s.title}\n\n{{${s.key}}}\n`);
  });

  it('orders the sections of templates/resume.md by their resume place', () => {
    const keys = new Set<string>(RESUME_KEYS);
    const placeholders = [...template('resume.md').matchAll(/^\{\{([a-z_]+)\}\}$/gm)].map((m) => m[1]!);
    expect(placeholders.filter((p) => keys.has(p))).toEqual([...RESUME_KEYS]);
  });

  it('gives the model exactly its sections: the answer schema, the parser and the system prompt', () => {
    expect(ANSWER_SCHEMA.required).toEqual([...MODEL_KEYS, 'pin_candidates']);
    const reply = Object.fromEntries(MODEL_KEYS.map((k) => [k, [`an item of ${k}`]]));
    const parsed = parseAnswer(JSON.stringify(reply)).value!;
    for (const k of MODEL_KEYS) expect(parsed[k].map((i) => i.text)).toEqual([`an item of ${k}`]);
    const system = template('model-system.md');
    // The answer's keys, then ITEM's fields: the keys end at pin_candidates.
    const named = [...system.matchAll(/"([a-z_]+)": \[/g)].map((m) => m[1]);
    expect(named.slice(0, named.indexOf('pin_candidates') + 1)).toEqual([...MODEL_KEYS, 'pin_candidates']);
  });

  it("agrees with the prose that names sections: docs/format.md and the agents' instructions", () => {
    const format = readFileSync(path.join(ROOT, 'docs', 'format.md'), 'utf8');
    const listed = [...format.matchAll(/^\d+\. `([^`]+)`/gm)].map((m) => m[1]);
    expect(listed).toEqual(SECTIONS.map((s) => s.title));
    const titles = new Set<string>(SECTIONS.map((s) => s.title));
    const named = /complete the new file's ([^.]*?) sections/.exec(template('agent-block.md').replace(/\s+/g, ' '));
    expect(named).not.toBeNull();
    const list = named![1]!.split(/, | and /);
    expect(list.length).toBeGreaterThan(1);
    for (const title of list) expect(titles.has(title), `agent-block.md: ${title}`).toBe(true);
    // /handoff: the agent writes the sections itself, under the schema's headings (handoff new --sections).
    for (const name of ['claude-command.md', 'gemini-command.toml', 'opencode-command.md']) {
      const headings = [...template(name).matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
      expect(headings.length, name).toBeGreaterThan(4);
      for (const title of headings) expect(titles.has(title), `${name}: ${title}`).toBe(true);
    }
  });

  it('is what the resume prompt reads and writes: each section under its own title', () => {
    const body = SECTIONS.map((s) => `## ${s.title}\n\n- the ${s.key} line\n`).join('\n');
    const meta = {
      id: '01m82nhbsz8f055py1rnm6tr6v',
      goal: 'the goal',
      status: 'open' as const,
      created: '2026-11-22T22:21:12.351Z',
      author: 'Ann <ann@example.com>',
      branch: 'main',
      base: null,
      head: null,
      parent: null,
      files: [],
    };
    const parts = handoffParts(parseHandoff(serializeHandoff(meta, body), '.handoff/handoffs/x.md'));
    const prompt = renderResume(template('resume.md'), { ...parts, pins: [], since: emptySince });
    for (const s of SECTIONS) {
      if (s.key === 'goal') continue;
      expect(parts[s.key]).toBe(`- the ${s.key} line`);
      expect(prompt).toContain(`## ${s.title}\n\n- the ${s.key} line`);
    }
  });

  it('is the only source file that spells a section title', () => {
    const schema = path.join(SRC, 'store', 'sections.ts');
    const found: string[] = [];
    for (const file of sources()) {
      if (file === schema) continue;
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        for (const s of SECTIONS)
          if (titleLiterals(s.title).test(line)) found.push(`${path.relative(ROOT, file)}:${i + 1}: ${s.title}`);
      });
    }
    expect(found).toEqual([]);
    // The scan finds what it looks for: the schema itself spells every title.
    const own = readFileSync(schema, 'utf8');
    for (const s of SECTIONS) expect(titleLiterals(s.title).test(own)).toBe(true);
    expect(TITLE.tried).toBe('Tried and abandoned');
  });
});

const emptySince = {
  head: null,
  headFound: false,
  commits: [],
  commitCount: 0,
  changedFiles: [],
  stillUncommitted: [],
  missingFiles: [],
};
