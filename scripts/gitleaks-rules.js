#!/usr/bin/env node
// Generates src/security/gitleaks-rules.ts from gitleaks' default configuration
// (config/gitleaks.toml in gitleaks/gitleaks, MIT license): the rules are data, ported, not
// rewritten by hand, so a newer upstream file is a regeneration away.
//
//   node scripts/gitleaks-rules.js <path to gitleaks.toml> <upstream commit>
//
// gitleaks' patterns are Go (RE2) regular expressions: linear by construction there. In
// JavaScript they backtrack, so each is translated to a form that stays linear:
// - inline flags ((?i), (?-i:...), (?i:...), (?s:...)) become explicit character sets, since
//   Node 20 has no regexp modifiers: `(?i)key` becomes `[kK][eE][yY]`;
// - every unbounded repetition (*, +, {n,}) gets an upper bound, so the work from one
//   starting position is bounded whatever the input (test/reliability/secrets-linear.test.ts
//   proves it on adversarial input);
// - `\z` and `\A` become `$` and `^` (no multiline flag), `(?P<name>` a plain group (the
//   numbering of groups is kept), `[[:alnum:]]` its ASCII class, `.` `[^\n]` as in Go.
// Two changes of meaning, both named where they are made below: the `[\w.-]{0,50}?` that
// opens half the rules is dropped (it finds nothing more, and multiplies the work), and a
// token may also end at `.`, `,`, `)`, `/` and the like (handoffs list file names and quote
// sentences).
// The toml is parsed with smol-toml (a devDependency: only this script reads toml).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';

/** Upper bounds given to unbounded repetitions: `.` within a line, anything else. */
const CAP_DOT = 256;
const CAP = 1024;

const POSIX = { alnum: 'a-zA-Z0-9', alpha: 'a-zA-Z', digit: '0-9', lower: 'a-z', upper: 'A-Z', xdigit: '0-9a-fA-F' };

/** The other case of the ASCII letters in [lo, hi], as ranges. */
function otherCase(lo, hi) {
  const out = [];
  const add = (a, b, shift) => {
    const s = Math.max(lo, a);
    const e = Math.min(hi, b);
    if (s <= e) out.push([s + shift, e + shift]);
  };
  add(97, 122, -32);
  add(65, 90, 32);
  return out;
}

const esc = (code) => {
  const c = String.fromCharCode(code);
  return /[\\\]^[-]/.test(c) ? `\\${c}` : code < 32 || code > 126 ? `\\x${code.toString(16).padStart(2, '0')}` : c;
};

/** Translates one Go regular expression; throws on syntax it does not know. */
export function translate(source) {
  let out = '';
  let i = 0;
  /** Flags of each open group; (?i) changes the innermost. */
  const stack = [{ ci: false, dotall: false }];
  const flags = () => stack[stack.length - 1];
  /** What the last atom was, for the repetition that may follow: a `.` or anything else. */
  let lastDot = false;
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') {
      const n = source[i + 1];
      if (n === 'z') out += '$';
      else if (n === 'A') out += '^';
      else if (n === 'x' && source[i + 2] === '{') throw new Error(`\\x{} in ${source}`);
      else if (n === 'x') {
        out += source.slice(i, i + 4);
        i += 4;
        lastDot = false;
        continue;
      } else if (/[pPQE]/.test(n)) throw new Error(`\\${n} in ${source}`);
      else if (/[a-zA-Z]/.test(n) && !/[dDwWsSbBnrtfv]/.test(n)) throw new Error(`\\${n} in ${source}`);
      else out += c + n;
      i += 2;
      lastDot = false;
      continue;
    }
    if (c === '[') {
      const [cls, end] = translateClass(source, i, flags().ci);
      out += cls;
      i = end;
      lastDot = false;
      continue;
    }
    if (c === '(') {
      if (source[i + 1] === '?') {
        const m = /^\(\?([a-zA-Z-]*)(\)|:)/.exec(source.slice(i));
        const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(source.slice(i));
        if (named) {
          stack.push({ ...flags() });
          out += '(';
          i += named[0].length;
          continue;
        }
        if (!m) throw new Error(`group at ${i} in ${source}`);
        const next = { ...flags() };
        let on = true;
        for (const f of m[1]) {
          if (f === '-') on = false;
          else if (f === 'i') next.ci = on;
          else if (f === 's') next.dotall = on;
          else throw new Error(`flag ${f} in ${source}`);
        }
        if (m[2] === ')') stack[stack.length - 1] = next;
        else {
          stack.push(next);
          out += '(?:';
        }
        i += m[0].length;
        continue;
      }
      stack.push({ ...flags() });
      out += '(';
      i++;
      continue;
    }
    if (c === ')') {
      stack.pop();
      out += ')';
      i++;
      lastDot = false;
      continue;
    }
    if (c === '*' || c === '+' || (c === '{' && /^\{\d+,\}/.test(source.slice(i)))) {
      const cap = lastDot ? CAP_DOT : CAP;
      let min = c === '+' ? 1 : 0;
      let len = 1;
      if (c === '{') {
        const m = /^\{(\d+),\}/.exec(source.slice(i));
        min = Number(m[1]);
        len = m[0].length;
      }
      out += `{${min},${Math.max(min, cap)}}`;
      i += len;
      continue;
    }
    if (c === '.') {
      out += flags().dotall ? '[\\s\\S]' : '[^\\n]';
      i++;
      lastDot = true;
      continue;
    }
    if (/[a-zA-Z]/.test(c) && flags().ci) {
      out += `[${c.toLowerCase()}${c.toUpperCase()}]`;
      i++;
      lastDot = false;
      continue;
    }
    // A `{` that opens a bounded repetition, `?`, `|`, `^`, `$` and literals pass as they are.
    out += c;
    i++;
    if (!/[?{}\d,|]/.test(c)) lastDot = false;
  }
  new RegExp(out, 'g'); // throws here, not at run time, on anything JavaScript refuses
  return out;
}

/** A character class from `[` at `start`; returns the JavaScript class and the index after it. */
function translateClass(source, start, ci) {
  let i = start + 1;
  let negate = false;
  if (source[i] === '^') {
    negate = true;
    i++;
  }
  const ranges = [];
  const escapes = [];
  let first = true;
  const single = () => {
    // One character of the class: its code, or null for an escape like \w.
    if (source[i] === '\\') {
      const n = source[i + 1];
      if (n === 'x') {
        const code = parseInt(source.slice(i + 2, i + 4), 16);
        i += 4;
        return code;
      }
      if (/[dDwWsS]/.test(n)) {
        escapes.push(`\\${n}`);
        i += 2;
        return null;
      }
      const map = { n: 10, r: 13, t: 9, f: 12, v: 11 };
      i += 2;
      return n in map ? map[n] : n.charCodeAt(0);
    }
    return source.charCodeAt(i++);
  };
  while (i < source.length && (source[i] !== ']' || first)) {
    first = false;
    const posix = /^\[:([a-z]+):\]/.exec(source.slice(i));
    if (posix) {
      const set = POSIX[posix[1]];
      if (!set) throw new Error(`[:${posix[1]}:] in ${source}`);
      for (const m of set.matchAll(/(.)-(.)/g)) ranges.push([m[1].charCodeAt(0), m[2].charCodeAt(0)]);
      i += posix[0].length;
      continue;
    }
    const lo = single();
    if (lo === null) continue;
    if (source[i] === '-' && source[i + 1] !== ']') {
      i++;
      const hi = single();
      if (hi === null) throw new Error(`range to an escape in ${source}`);
      ranges.push([lo, hi]);
    } else ranges.push([lo, lo]);
  }
  if (source[i] !== ']') throw new Error(`unclosed class in ${source}`);
  if (ci) for (const [lo, hi] of [...ranges]) ranges.push(...otherCase(lo, hi));
  const body = ranges.map(([lo, hi]) => (lo === hi ? esc(lo) : `${esc(lo)}-${esc(hi)}`)).join('') + escapes.join('');
  return [`[${negate ? '^' : ''}${body}]`, i + 1];
}

/**
 * Half of gitleaks' rules open with `[\w.-]{0,50}?` (twice, for some) so that a finding
 * shows the whole name before its keyword. It finds nothing more, and in JavaScript it
 * multiplies the work at every position by fifty (or 2,500); the name is taken back by
 * hand where an allow-list looks at the whole match (redact.ts, `widened`).
 */
const CONTEXT = /^(\(\?i\))?\[\\w\.-\]\{0,50\}\?/;

/**
 * Where a token must end: upstream accepts a quote, a space, `;`, an escaped newline or the
 * end. A key in a file name, a sentence or a URL ends with `.`, `,`, `)`, `/` and the like
 * too, and a handoff lists file names and quotes sentences.
 */
const END = String.raw`(?:[\x60'"\s;]|\\[nr]|$)`;
const WIDER_END = String.raw`(?:[\x60'"\s;.,:)\]}>|&/]|\\[nr]|$)`;

/** Go's lowercase of a keyword or stopword is ASCII here: gitleaks' are. */
function rule(r) {
  const widened = CONTEXT.test(r.regex);
  const regex = r.regex.replace(CONTEXT, '$1').replace('(?i:[\\w.-]{0,50}?', '(?i:').replaceAll(END, WIDER_END);
  const out = { id: r.id, source: translate(regex) };
  if (widened) out.widened = true;
  if (r.keywords?.length) out.keywords = r.keywords.map((k) => k.toLowerCase());
  if (r.entropy) out.entropy = r.entropy;
  if (r.secretGroup) out.group = r.secretGroup;
  const allow = (r.allowlists ?? [])
    .filter((a) => a.regexes || a.stopwords)
    .filter((a) => !(a.paths && a.condition === 'AND'))
    .map((a) => {
      const x = {};
      if (a.regexes) x.regexes = a.regexes.map(translate);
      if (a.stopwords) x.stopwords = a.stopwords.map((w) => w.toLowerCase());
      if (a.regexTarget) x.target = a.regexTarget;
      if (a.condition === 'AND' && a.regexes && a.stopwords) x.all = true;
      return x;
    });
  if (allow.length) out.allow = allow;
  return out;
}

function main() {
  const [file, commit] = process.argv.slice(2);
  if (!file || !/^[0-9a-f]{40}$/.test(commit ?? '')) {
    console.error('usage: node scripts/gitleaks-rules.js <gitleaks.toml> <upstream commit, 40 hex digits>');
    process.exit(2);
  }
  const config = parse(readFileSync(file, 'utf8'));
  // Rules that match a file's path, not its content, have nothing to find in text. Rules
  // that gitleaks runs on some file types only run on any text here (a handoff quotes files of
  // every type), but one whose pattern is generic and trusts its file type to mean it is left
  // out: hashicorp-tf-password takes any `password = "..."` for one in a .tf file;
  // extra-rules.ts' password-assignment finds those in any text, with an entropy floor.
  const GENERIC_BUT_FOR_PATH = new Set(['hashicorp-tf-password']);
  const rules = config.rules.filter((r) => r.regex && !GENERIC_BUT_FOR_PATH.has(r.id)).map(rule);
  const global = {
    regexes: config.allowlist.regexes.map(translate),
    stopwords: config.allowlist.stopwords.map((w) => w.toLowerCase()),
  };
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const text = `// Generated by scripts/gitleaks-rules.js from gitleaks' config/gitleaks.toml at commit
// ${commit} (https://github.com/gitleaks/gitleaks, MIT license,
// Copyright (c) 2019 Zachary Rice). Do not edit: regenerate. The patterns are translated from
// Go's RE2 syntax to bounded JavaScript (see the script), keywords and stopwords lowercased.

/** An allow-list: a finding it matches is not a secret (its regexes test the secret, or the
 *  match or line when \`target\` says so; a stopword is a substring of the secret). */
export interface GitleaksAllow {
  regexes?: readonly string[];
  stopwords?: readonly string[];
  target?: string;
  /** Both the regexes and the stopwords must match (gitleaks' condition AND). */
  all?: boolean;
}

export interface GitleaksRule {
  id: string;
  /** A JavaScript regular expression, used with the global flag only. */
  source: string;
  /** Lowercase; the rule runs only on text that contains one of them. */
  keywords?: readonly string[];
  /** The least Shannon entropy (bits per character) of the secret. */
  entropy?: number;
  /** Which group is the secret; by default the first that matched, or the whole match. */
  group?: number;
  allow?: readonly GitleaksAllow[];
  /** Upstream's pattern took up to 50 more name characters before the match. */
  widened?: boolean;
}

export const UPSTREAM_COMMIT = '${commit}';

export const GLOBAL_ALLOW: GitleaksAllow = ${JSON.stringify(global, null, 2)};

export const RULES: readonly GitleaksRule[] = ${JSON.stringify(rules, null, 2)};
`;
  writeFileSync(path.join(root, 'src/security/gitleaks-rules.ts'), text);
  console.log(`${rules.length} rules written to src/security/gitleaks-rules.ts`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
