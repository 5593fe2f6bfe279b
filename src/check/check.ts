// `handoff check`: validate the .handoff/ tree for CI and pull requests. Exit 0 clean,
// 1 problems found, 2 usage error.
import path from 'node:path';
import type { ArgsOf, Outcome } from '../command/spec.js';
import type { Context } from '../command/context.js';
import { HandoffError, UsageError } from '../core/errors.js';
import { treeFindings, type Finding, type Texts } from './rules.js';
import { editedPins, pinAdditions } from './edited-pins.js';
import { readTextNow } from '../store/fs.js';
import { githubAnnotations, markdownSummary, textReport, type Change, type SummaryData } from './report.js';
import type { Handoff } from '../store/handoff.js';
import type { Pin } from '../store/pin.js';
import { activePins } from '../store/pin-scope.js';
import { nothingSince, renderResume, resumeParts } from '../resume/prompt.js';
import { HANDOFF_DIR, itemKind, type Tree, type TreeFile } from '../store/tree.js';
import { fileKey, headsFound, type HeadsFound } from './heads-found.js';
import type { Git } from '../git/git.js';
import { readRoadmap, renderWorkTree } from '../roadmap/roadmap-file.js';
import { readTemplate } from '../store/templates.js';
import { estimateTokens } from '../transcripts/tokens.js';
import { plural, printJson } from '../command/output.js';
import { committedBy, pinFlags, pinReviewFindings, type PinToReview } from './pin-review.js';
import { handoffReviewFindings, type HandoffToReview } from './handoff-review.js';
import { closeLanded } from '../git-hooks/close-landed.js';
import { redactSecrets } from '../security/redact.js';
import { kindList } from '../security/notice.js';

const FORMATS = ['text', 'json', 'github'] as const;
type Format = (typeof FORMATS)[number];

/**
 * Files a handoff lists as committed must exist at its head commit. Git is asked only about
 * the handoffs not found whole before (heads-found.ts, by what each file is known by: `keys`);
 * `whole` receives every handoff found whole now.
 */
async function missingCommittedFiles(
  git: Git,
  all: readonly Handoff[],
  keys: ReadonlyMap<string, string>,
  before: HeadsFound,
  whole: Map<string, string>,
): Promise<Finding[]> {
  const handoffs = all.filter((h) => {
    const key = keys.get(h.file);
    if (!h.meta.head || key === undefined || !before.has(h.file, key)) return true;
    whole.set(h.file, key);
    return false;
  });
  const heads = [...new Set(handoffs.map((h) => h.meta.head).filter((h): h is string => Boolean(h)))];
  const specs = handoffs.flatMap((h) =>
    h.meta.head
      ? h.meta.files
          .filter((f) => f.state === 'committed' && f.change !== 'deleted')
          .map((f) => `${h.meta.head}:${f.path}`)
      : [],
  );
  const found = await git.existingObjects([...heads.map((h) => `${h}^{commit}`), ...specs]);
  const findings: Finding[] = [];
  for (const h of handoffs) {
    if (!h.meta.head) continue;
    if (!found.has(`${h.meta.head}^{commit}`)) {
      findings.push({
        level: 'warning',
        file: h.file,
        rule: 'head',
        message: `its head commit ${h.meta.head.slice(0, 12)} is not in this clone (rebased away, or a shallow clone); its file list was not checked`,
      });
      continue;
    }
    const missing = h.meta.files
      .filter((f) => f.state === 'committed' && f.change !== 'deleted' && !found.has(`${h.meta.head}:${f.path}`))
      .map((f) => f.path);
    const key = keys.get(h.file);
    if (missing.length === 0 && key !== undefined) whole.set(h.file, key);
    if (missing.length > 0)
      findings.push({
        level: 'error',
        file: h.file,
        rule: 'files',
        message: `lists as committed ${missing.map((m) => `'${m}'`).join(', ')}, which ${missing.length === 1 ? 'does' : 'do'} not exist at its head commit ${h.meta.head.slice(0, 12)}`,
      });
  }
  return findings;
}

async function changedSince(git: Git, base: string): Promise<Map<string, Change>> {
  const out = await git.nameStatusSince(base, `:/${HANDOFF_DIR}`);
  const tokens = out.split('\0');
  const changes = new Map<string, Change>();
  for (let i = 0; i + 1 < tokens.length; i += 2)
    changes.set(tokens[i + 1]!, tokens[i] === 'A' ? 'added' : tokens[i] === 'D' ? 'deleted' : 'modified');
  // Untracked files are part of the branch's change too, until they are committed.
  for (const p of await git.untrackedPaths(`:/${HANDOFF_DIR}`)) changes.set(p, 'added');
  return changes;
}

async function resolveBase(git: Git, rev: string): Promise<string> {
  const base = await git.resolveCommit(rev);
  if (base) return base;
  const shallow = await git.isShallow();
  throw new HandoffError(
    shallow
      ? `--base '${rev}' is not in this shallow clone; fetch it (git fetch --deepen=50 origin, or actions/checkout with fetch-depth: 0)`
      : `--base '${rev}' is not a commit in this repository; fetch it first (git fetch origin) or name another revision`,
  );
}

export async function run(ctx: Context, args: ArgsOf<'check'>): Promise<Outcome> {
  const format = (args.values.json ? 'json' : (args.values.format ?? 'text')) as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}; got '${format}'`);
  // Only the github format has a summary: without it the option would be silently ignored.
  if (args.values.summary !== undefined && format !== 'github')
    throw new UsageError(`--summary works only with --format github; got the ${format} format`);
  const root = ctx.root;
  const git = await ctx.git();
  const baseArg = args.values.base;
  const base = baseArg === undefined ? null : await resolveBase(git, baseArg);
  // Asked first: git walks the history for the pins' first additions while the files are read
  // (with --base, once the pins the branch changed are known: there may be none).
  const early = base === null ? pinAdditions(ctx, git) : undefined;
  early?.catch(() => {}); // awaited below, where a failure is reported
  // On the default branch (CI after a push, where merges made on a server arrive), the
  // handoffs of the branches that landed close first, as the post-merge hook does locally.
  const closed = base === null ? await closeLanded(ctx, true) : [];
  const roadmap = ctx.config.roadmap;
  const { files, tree, content } = await renderWorkTree(ctx, roadmap);
  // A finding names its line: the text of a file the cache knew by its stat data is read
  // when a finding needs it, and the files are indexed by path only then (most runs find nothing).
  let byPath: Map<string, TreeFile> | undefined;
  const texts: Texts = {
    get: (file) => {
      byPath ??= new Map(files.map((f) => [f.path, f]));
      const f = byPath.get(file);
      return f && (f.text ?? readTextNow(path.join(root, file)));
    },
  };
  const findings = treeFindings(tree, texts);
  const currentRoadmap = await readRoadmap(root, roadmap);
  // While a file cannot be read, `handoff roadmap` writes nothing (the roadmap would leave
  // it out): that file's error is the one to fix, not a roadmap it would be compared with.
  if (
    tree.problems.length === 0 &&
    currentRoadmap !== content &&
    (currentRoadmap !== undefined || tree.handoffs.length + tree.pins.length > 0)
  ) {
    findings.push({
      level: 'error',
      file: roadmap,
      rule: 'roadmap',
      message: `${currentRoadmap === undefined ? 'is missing' : 'is out of date'}: run 'handoff roadmap' and commit it ('handoff roadmap --check' shows the difference)`,
    });
  }
  const changes = base ? await changedSince(git, base) : null;
  // With --base only what the branch changed is reported: git is asked about that alone (a
  // year of handoffs' committed files at their heads was seconds of git's time).
  const asked = <T extends { file: string }>(items: readonly T[]) =>
    changes ? items.filter((i) => changes.has(i.file)) : items;
  const hasHead = (await git.head()) !== null;
  if (hasHead) {
    const pins = asked(tree.pins);
    const additions = early ?? (pins.length > 0 ? pinAdditions(ctx, git) : null);
    // What each handoff that names a head is known by, as read (most by the stat data the cache vouched for).
    const named = new Set(tree.handoffs.filter((h) => h.meta.head).map((h) => h.file));
    const keys = new Map<string, string>();
    for (const f of named.size > 0 ? files : []) {
      const key = named.has(f.path) ? fileKey(f) : undefined;
      if (key !== undefined) keys.set(f.path, key);
    }
    const found = headsFound(ctx.cacheFile);
    // A handoff this run closed names the head and files it named when it was found whole (close-landed.ts).
    const closedWhole = new Map<string, string>();
    for (const c of closed) {
      const was = c.was && fileKey(c.was);
      const now = keys.get(c.file);
      if (was !== undefined && now !== undefined && found.has(c.file, was)) closedWhole.set(c.file, now);
    }
    const before: HeadsFound = {
      has: (file, key) => closedWhole.get(file) === key || found.has(file, key),
      save: (whole) => found.save(whole),
    };
    const whole = new Map<string, string>();
    findings.push(
      ...(await editedPins(git, pins, texts, await additions)),
      ...(await missingCommittedFiles(git, asked(tree.handoffs), keys, before, whole)),
    );
    // Those not asked about (--base) keep what was found before.
    for (const [file, key] of keys) if (before.has(file, key)) whole.set(file, key);
    await before.save(whole);
  }
  const pinChanges = changes && base ? await changedPins(git, tree, base, changes) : [];
  findings.push(...pinReviewFindings(pinChanges));
  if (changes && base) {
    findings.push(...handoffReviewFindings(await changedHandoffs(git, tree, base, changes)));
    const { agentFileFindings } = await import('./agent-review.js');
    const agentFindings = await agentFileFindings(ctx, git, base);
    for (const f of agentFindings) changes.set(f.file, 'modified');
    findings.push(...agentFindings);
  }
  const reported = (changes ? findings.filter((f) => changes.has(f.file) || f.rule === 'roadmap') : findings).sort(
    (a, b) =>
      a.file !== b.file
        ? a.file < b.file
          ? -1
          : 1
        : (a.line ?? 0) - (b.line ?? 0) || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0),
  );
  const errors = reported.filter((f) => f.level === 'error').length;

  if (format === 'json') {
    printJson(ctx, { ok: errors === 0, base, findings: reported, closed: closed.map((c) => c.file) });
  } else if (format === 'text') {
    ctx.stdout(textReport(reported));
    const checked = `${plural(tree.handoffs.length, 'handoff')}, ${plural(tree.pins.length, 'pin')}${base ? ` (reporting changes since ${base.slice(0, 12)})` : ''}`;
    ctx.stderr(
      errors === 0
        ? `handoff: check passed: ${checked}`
        : `handoff: check found ${errors} problem${errors === 1 ? '' : 's'} in ${checked}`,
    );
  } else {
    ctx.stdout(githubAnnotations(reported));
    const summary = markdownSummary(await summaryData(tree, changes, reported, base, pinChanges));
    const target = args.values.summary ?? ctx.env.GITHUB_STEP_SUMMARY;
    if (target) {
      // Taken, not imported (see store/fs.ts): most checks write no summary.
      await process
        .getBuiltinModule('node:fs')
        .promises.appendFile(path.resolve(ctx.cwd, target), summary)
        .catch((cause: NodeJS.ErrnoException) => {
          const why = cause.code === 'ENOENT' ? 'its folder does not exist' : (cause.code ?? cause.message);
          throw new HandoffError(
            `cannot write the pull request summary to ${target} (${why}); expected a file to append to, in an existing folder`,
            { cause },
          );
        });
      ctx.stderr(`handoff: wrote the pull request summary to ${target}`);
    } else {
      ctx.stdout(summary);
    }
  }
  return errors === 0 ? undefined : 'failure';
}

async function summaryData(
  tree: Tree,
  changes: Map<string, Change> | null,
  findings: Finding[],
  base: string | null,
  pins: PinToReview[],
): Promise<SummaryData> {
  const template = await readTemplate('resume.md');
  const active = activePins(tree.pins);
  const since = nothingSince();
  const handoffs = tree.handoffs
    .filter((h) => (changes ? changes.has(h.file) : h.meta.status === 'open'))
    .map((h) => {
      const prompt = renderResume(template, resumeParts(h, active, since));
      return {
        handoff: h,
        change: changes?.get(h.file) ?? ('modified' as Change),
        promptChars: prompt.length,
        promptTokens: estimateTokens(prompt),
      };
    });
  return { base, findings, handoffs, pins, all: tree.handoffs };
}

/** Pins the branch added, changed or retired since base, with who committed each first. */
async function changedPins(git: Git, tree: Tree, base: string, changes: Map<string, Change>): Promise<PinToReview[]> {
  const changed = [...changes].filter(([p]) => itemKind(p) === 'pin');
  const [before, authors] = await Promise.all([
    git.readObjects(changed.map(([p]) => `${base}:${p}`)),
    committedBy(
      git,
      base,
      changed.map(([p]) => p),
    ),
  ]);
  const out: PinToReview[] = [];
  const { parsePin } = await import('../store/pin.js');
  for (const [file, change] of changed) {
    const now = tree.pins.find((p) => p.file === file);
    const id = path.basename(file, '.md');
    if (!now) {
      out.push({ id, file, change, text: '', committedBy: authors.get(file) ?? null, review: false, flags: [] });
      continue;
    }
    const old = before.get(`${base}:${file}`);
    let was: Pin | undefined;
    try {
      was = old === undefined ? undefined : parsePin(old, file);
    } catch {
      // unreadable at base: reviewed as new text
    }
    const retired = change === 'modified' && was?.meta.status === 'active' && now.meta.status === 'retired';
    // A status change alone (retired, superseded) asks nothing new of an agent; a text change does.
    const sameText = change === 'modified' && was !== undefined && was.text === now.text;
    // The report lands in CI logs, often public: a secret in the pin is shown redacted, and
    // named among what stands out.
    const redacted = redactSecrets(now.text);
    const kinds = redacted.redactions.map((r) => r.kind);
    out.push({
      id,
      file,
      change: retired ? 'retired' : change,
      text: redacted.text,
      committedBy: authors.get(file) ?? null,
      review: !retired && !sameText,
      flags: [...pinFlags(now.text), ...(kinds.length > 0 ? [`a secret (${kindList(kinds)})`] : [])],
    });
  }
  return out;
}

/** Handoffs the branch added, or whose goal or text it changed, since base, with who committed each first. */
async function changedHandoffs(
  git: Git,
  tree: Tree,
  base: string,
  changes: Map<string, Change>,
): Promise<HandoffToReview[]> {
  const changed = [...changes].filter(([p, c]) => itemKind(p) === 'handoff' && c !== 'deleted');
  const [before, authors] = await Promise.all([
    git.readObjects(changed.filter(([, c]) => c === 'modified').map(([p]) => `${base}:${p}`)),
    committedBy(
      git,
      base,
      changed.map(([p]) => p),
    ),
  ]);
  const out: HandoffToReview[] = [];
  const { parseHandoff } = await import('../store/handoff.js');
  for (const [file, change] of changed) {
    const now = tree.handoffs.find((h) => h.file === file) ?? tree.misnamed.find((h) => h.file === file);
    if (!now || !('bodyText' in now)) continue; // unreadable: the format rule reports it
    const text = `${now.meta.goal}\n${now.bodyText}`;
    const old = before.get(`${base}:${file}`);
    if (old !== undefined) {
      try {
        const was = parseHandoff(old, file);
        // A status change alone (done, superseded) tells an agent nothing new.
        if (`${was.meta.goal}\n${was.bodyText}` === text) continue;
      } catch {
        // unreadable at base: reviewed as new text
      }
    }
    out.push({ file, change, text, committedBy: authors.get(file) ?? null });
  }
  return out;
}
