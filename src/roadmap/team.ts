// The team's roadmap (`handoff roadmap --all`): what every branch is working on, a section
// per branch with its open handoffs and their chain as a Mermaid graph. Printed, never
// committed: it depends on the branches this clone knows, and changes with every push.
import type { Handoff } from '../store/handoff.js';
import { inline } from '../store/markdown.js';
import { mermaidChain } from './chain-graph.js';

export interface RefHandoffs {
  ref: string;
  handoffs: readonly Handoff[];
}

export function renderTeam(refs: readonly RefHandoffs[]): string {
  const out = [
    "# The team's roadmap",
    '',
    "What each branch is working on, read from git (`handoff roadmap --all`). Not committed: it depends on this clone's branches.",
  ];
  const idle: string[] = [];
  for (const { ref, handoffs } of refs) {
    const open = handoffs.filter((h) => h.meta.status === 'open');
    if (open.length === 0) {
      idle.push(ref);
      continue;
    }
    out.push('', `## ${ref}`, '');
    for (const h of [...open].reverse())
      out.push(
        `- ${inline(h.meta.goal)} (\`${h.meta.id.slice(0, 8)}\`, written on ${h.meta.branch ?? 'a detached HEAD'}, ${h.meta.created.slice(0, 10)})`,
      );
    const graph = mermaidChain(open, handoffs);
    if (graph) out.push('', graph);
  }
  if (idle.length > 0) out.push('', `Nothing open on: ${idle.join(', ')}.`);
  return `${out.join('\n')}\n`;
}
