// Deterministic extraction from a transcript's event stream: what the next session needs
// (the user's lasting rules, files, todo/plan state, last test/build runs, decisions and
// changes of plan, open questions, approaches given up, the live thread) and nothing of the
// process. Each sentence is sorted by classify() (sentence-class.ts), what the corpus measures. Fed one event at a time so memory stays
// bounded however long the session; every kept item carries the line it came from.
import type { Agent, EditKind, TodoStatus, TranscriptEvent } from './events.js';
import { redactSecrets } from '../security/redact.js';
import { answers, isConstraint, isRejection, MAX_QUOTE, sentences } from './sentence-rules.js';
import { changeCue, reversed } from './choice-rules.js';
import { classify, type SentenceClass } from './sentence-class.js';

export { withinBudget } from './budget.js';
export {
  answers,
  isConstraint,
  isOpenQuestion,
  isRejection,
  sentences,
} from './sentence-rules.js';

export interface Quoted {
  text: string;
  line: number;
  /** For a decision: the ids of the earlier handoff's decisions it replaces. */
  supersedes?: string[];
}

/** A decision the chain's earlier handoff still holds as current: what a session may reverse. */
export interface Standing {
  id: string;
  text: string;
}

export interface Extraction {
  agent: Agent;
  sessionId?: string;
  cwd?: string;
  start?: string;
  last?: string;
  model?: string;
  constraints: Quoted[];
  decisions: Quoted[];
  /** The user turning down what the agent did ("no, don't mock it", "revert that"), newest kept. */
  rejections: Quoted[];
  /** Approaches the agent gave up in its own words ("that didn't work, so I'm dropping X"), newest kept. */
  abandoned: Quoted[];
  /** Questions the agent asked the user that the user's next turn did not answer. */
  questions: Quoted[];
  files: Array<{ path: string; change: EditKind; from?: string; line: number }>;
  todos: { line: number; items: Array<{ text: string; status: TodoStatus }> } | undefined;
  plan: Quoted | undefined;
  commands: Array<{ command: string; passed: boolean | undefined; line: number; subagent?: boolean }>;
  /** The newest user turns of the main thread, oldest first (trim to a budget later). */
  recentUser: Quoted[];
  usage: { contextTokens: number; window?: number; model?: string; line: number } | undefined;
  counts: {
    userTurns: number;
    assistantTexts: number;
    toolCalls: number;
    sidechainEvents: number;
    compactions: number;
  };
  redactions: number;
}

const MAX_CONSTRAINTS = 40;
const MAX_DECISIONS = 20;
const MAX_QUESTIONS = 10;
const RECENT_TURNS = 40;
const RECENT_CHARS = 200_000;

const TEST_OR_BUILD =
  /(?:^|[\s;&|(])(?:(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:test|build|lint|typecheck|check)\b|npx\s+(?:vitest|jest|tsc|eslint|playwright)\b|vitest\b|jest\b|pytest\b|python3? -m (?:pytest|unittest)\b|cargo (?:test|build|check|clippy)\b|go (?:test|build|vet)\b|make(?:\s|$)|tsc\b|mvn\b|gradle\b|\.\/gradlew\b|dotnet (?:test|build)\b|ruff\b|mypy\b|golangci-lint\b|eslint\b|ctest\b|cmake --build\b|swift (?:test|build)\b|deno (?:test|check)\b|rspec\b|rake\b|phpunit\b)/;

// Text the agent's harness wraps around user turns: not the user's words.
const WRAPPERS =
  /<(local-command-caveat|system-reminder|command-name|command-message|command-args|local-command-stdout|local-command-stderr)>[\s\S]*?<\/\1>/g;

function commandKey(command: string): string {
  return command
    .split(/\s\|\s|\s2>&1/)[0]!
    .replace(/\s+/g, ' ')
    .trim();
}

const isTestOrBuild = (command: string) => TEST_OR_BUILD.test(command);

// Words that name no subject of a decision.
const PLAIN = new Set(
  'the and for with use using will that this from are not now all its our has had was were been have then than into just also you can because since so which would should let'.split(
    ' ',
  ),
);
/** The whole words of a text that can name what a decision is about ("engine2", "postgres"). */
const names = (text: string) =>
  new Set((text.toLowerCase().match(/[\p{L}\p{N}_-]{3,}/gu) ?? []).filter((w) => !PLAIN.has(w)));

export class Extractor {
  private readonly ex: Extraction;
  private readonly files = new Map<string, { path: string; change: EditKind; from?: string; line: number }>();
  private readonly commands = new Map<
    string,
    { command: string; passed: boolean | undefined; line: number; subagent?: boolean }
  >();
  private readonly pending = new Map<string, string>();
  private readonly tasks = new Map<string, { text: string; status: TodoStatus }>();
  private tasksLine = 0;
  private asked: Quoted[] = [];
  private acted = false;
  /** A command failed since the agent last wrote: its next words may give the approach up. */
  private failed = false;
  private readonly shells = new Set<string>();
  private recentChars = 0;

  /** The earlier handoff's current decisions: a session that reverses one names it. */
  constructor(
    agent: Agent,
    private readonly standing: readonly Standing[] = [],
  ) {
    this.ex = {
      agent,
      constraints: [],
      decisions: [],
      questions: [],
      rejections: [],
      abandoned: [],
      files: [],
      todos: undefined,
      plan: undefined,
      commands: [],
      recentUser: [],
      usage: undefined,
      counts: { userTurns: 0, assistantTexts: 0, toolCalls: 0, sidechainEvents: 0, compactions: 0 },
      redactions: 0,
    };
  }

  add(e: TranscriptEvent): void {
    const ex = this.ex;
    if (e.sidechain) ex.counts.sidechainEvents++;
    switch (e.kind) {
      case 'meta':
        if (e.sessionId && !ex.sessionId) ex.sessionId = e.sessionId;
        if (e.cwd && !ex.cwd) ex.cwd = e.cwd;
        if (e.start && !ex.start) ex.start = e.start;
        if (e.model) ex.model = e.model;
        return;
      case 'time':
        ex.start ??= e.at;
        ex.last = e.at;
        return;
      case 'user':
        if (e.sidechain) return;
        ex.counts.userTurns++;
        this.userTurn(e.text, e.line);
        return;
      case 'assistant':
        if (e.sidechain) return;
        ex.counts.assistantTexts++;
        for (const s of sentences(e.text)) {
          const q = { text: s, line: e.line };
          const c = classify(s, { speaker: 'assistant', earlier: this.current(), afterFailure: this.failed });
          if (c === 'abandoned') this.push(ex.abandoned, q, MAX_QUESTIONS, 'd');
          else if (c === 'decision' || c === 'reversal')
            this.push(ex.decisions, this.replacing(q, c), MAX_DECISIONS, 'd');
          else if (c === 'question') this.asked.push(q);
        }
        this.failed = false;
        return;
      case 'tool-call':
        ex.counts.toolCalls++;
        // An agent that goes on working was not waiting for an answer.
        if (!e.sidechain) {
          this.asked = [];
          this.acted = true;
        }
        return;
      case 'file-edit': {
        if (!e.sidechain) this.acted = true;
        const prev = this.files.get(e.path);
        const change = prev?.change === 'create' && e.change === 'edit' ? 'create' : e.change;
        this.files.set(e.path, {
          path: e.path,
          change,
          ...(e.from ? { from: e.from } : {}),
          line: prev?.line ?? e.line,
        });
        return;
      }
      case 'shell': {
        if (!e.sidechain) this.acted = true;
        if (!e.sidechain && e.exitCode !== undefined && e.exitCode !== 0) this.failed = true;
        if (!e.sidechain && e.id && e.exitCode === undefined) this.shells.add(e.id);
        const command = e.command.trim();
        if (!isTestOrBuild(command) || command.length > MAX_QUOTE) return;
        const passed = e.exitCode === undefined ? undefined : e.exitCode === 0;
        // `npm test 2>&1 | tail` and `npm test` are one command run twice.
        const key = commandKey(command);
        this.commands.delete(key);
        this.commands.set(key, { command, passed, line: e.line, ...(e.sidechain ? { subagent: true } : {}) });
        if (e.id && e.exitCode === undefined) this.pending.set(e.id, key);
        return;
      }
      case 'tool-result': {
        if (e.id && this.shells.delete(e.id) && e.isError) this.failed = true;
        const command = e.id ? this.pending.get(e.id) : undefined;
        if (command === undefined) return;
        this.pending.delete(e.id!);
        const entry = this.commands.get(command);
        if (entry) entry.passed = !e.isError;
        return;
      }
      case 'todos':
        if (e.sidechain && ex.todos) return;
        ex.todos = { line: e.line, items: e.items.filter((i) => i.text.trim() !== '') };
        return;
      case 'task': {
        if (e.sidechain) return;
        const id = e.id ?? String(this.tasks.size + 1);
        const prev = this.tasks.get(id);
        this.tasks.set(id, {
          text: e.subject ?? prev?.text ?? `task ${id}`,
          status: e.status ?? prev?.status ?? 'pending',
        });
        this.tasksLine = e.line;
        return;
      }
      case 'plan':
        if (!e.sidechain) ex.plan = { text: e.text, line: e.line };
        return;
      case 'compaction':
        if (e.sidechain) return;
        ex.counts.compactions++;
        ex.usage = undefined;
        return;
      case 'usage':
        if (e.sidechain) return;
        ex.usage = {
          contextTokens: e.contextTokens,
          ...(e.window ? { window: e.window } : {}),
          ...(e.model ? { model: e.model } : {}),
          line: e.line,
        };
        if (e.model) ex.model = e.model;
        return;
    }
  }

  private userTurn(raw: string, line: number): void {
    const ex = this.ex;
    const text = raw.replace(WRAPPERS, '').trim();
    if (text === '') return;
    for (const q of this.asked) if (!answers(text, q.text)) this.push(ex.questions, q, MAX_QUESTIONS, 'd');
    this.asked = [];
    ex.recentUser.push({ text, line });
    this.recentChars += text.length;
    while (ex.recentUser.length > RECENT_TURNS || (this.recentChars > RECENT_CHARS && ex.recentUser.length > 1))
      this.recentChars -= ex.recentUser.shift()!.text.length;
    // Long pastes (logs, documents) are not the user's own rules.
    if (text.length > 4000) return;
    for (const s of sentences(text)) {
      // A rule the user set is a pin candidate whatever else the sentence is.
      if (isConstraint(s)) this.push(ex.constraints, { text: s, line }, MAX_CONSTRAINTS, 'c');
      else {
        const c = classify(s, { speaker: 'user', earlier: this.current() });
        if (c === 'decision' || c === 'reversal')
          this.push(ex.decisions, this.replacing({ text: s, line }, c), MAX_DECISIONS, 'd');
      }
    }
    // The agent had just acted: a reply that turns it down marks an approach abandoned.
    if (this.acted && isRejection(text))
      this.push(
        ex.rejections,
        { text: sentences(text).find(isRejection) ?? sentences(text)[0] ?? text, line },
        MAX_QUESTIONS,
        'd',
      );
    this.acted = false;
  }

  /** The decisions standing so far, the earlier handoff's first: a change of plan against one is itself a decision. */
  private current(): string[] {
    return [...this.standing.map((d) => d.text), ...this.ex.decisions.map((d) => d.text)];
  }

  /**
   * A reversal of a decision of the earlier handoff names it, so the chain marks it superseded
   * whatever the verb: the one the rules see it turn from, else the one it shares the most
   * words with. A reversal of this session's own decisions is left to the chain's phrasing rule.
   * Marking a live decision superseded hides it from every later session, so the sentence must
   * also carry a cue of change: "we'll use engine2 for stage 2" repeats the words of "we'll use
   * engine1 for stage 1" without turning from it.
   */
  private replacing(q: Quoted, c: SentenceClass): Quoted {
    if (c !== 'reversal' || this.standing.length === 0 || !changeCue(q.text)) return q;
    const texts = this.current();
    // The rules' pick is by word stems ("engine1" and "engine2" meet), so the closest of it by whole words decides.
    const named = new Set(reversed(q.text, texts));
    const mine = names(q.text);
    let most = 0;
    let closest: string | undefined;
    for (const t of texts) {
      if (named.size > 0 && !named.has(t)) continue;
      let n = 0;
      for (const w of names(t)) if (mine.has(w)) n++;
      // Ties go to the later decision: a session's own comes after the earlier handoff's.
      if (n > 0 && n >= most) [most, closest] = [n, t];
    }
    const target = this.standing.filter((d) => d.text === closest);
    return target.length > 0 ? { ...q, supersedes: target.map((d) => d.id) } : q;
  }

  private push(list: Quoted[], q: Quoted, max: number, tag: string): void {
    // Lists stay short, so a scan keeps memory flat where a set of everything seen would not.
    if (list.some((x) => x.text === q.text)) return;
    list.push(q);
    // Constraints: the first ones stated; decisions: the latest ones.
    if (list.length > max) tag === 'd' ? list.shift() : list.pop();
  }

  /** The result, with every kept text passed through secret redaction. */
  result(): Extraction {
    const ex = this.ex;
    ex.files = [...this.files.values()];
    ex.commands = [...this.commands.values()];
    if (this.tasks.size > 0 && this.tasksLine > (ex.todos?.line ?? 0)) {
      ex.todos = { line: this.tasksLine, items: [...this.tasks.values()] };
    }
    const clean = (t: string) => {
      // Control characters (a NUL in a pasted log) would make the handoff a binary file.
      const r = redactSecrets(t.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, ''));
      ex.redactions += r.redactions.length;
      return r.text;
    };
    const q = (x: Quoted) => ({ ...x, text: clean(x.text) });
    ex.constraints = ex.constraints.map(q);
    ex.decisions = ex.decisions.map(q);
    // Still waiting at the end of the transcript: asked, and no user turn since.
    for (const a of this.asked) this.push(ex.questions, a, MAX_QUESTIONS, 'd');
    this.asked = [];
    ex.questions = ex.questions.map(q);
    ex.rejections = ex.rejections.map(q);
    ex.abandoned = ex.abandoned.map(q);
    ex.recentUser = ex.recentUser.map(q);
    if (ex.plan) ex.plan = q(ex.plan);
    ex.commands = ex.commands.map((c) => ({ ...c, command: clean(c.command) }));
    if (ex.todos) ex.todos = { ...ex.todos, items: ex.todos.items.map((i) => ({ ...i, text: clean(i.text) })) };
    return ex;
  }
}
