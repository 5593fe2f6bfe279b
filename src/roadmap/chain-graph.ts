// The chain of handoffs as a Mermaid graph (GitHub renders it in Markdown): the pull
// request summary of `check` and the team's roadmap (`roadmap --all`) draw it alike.
import type { Handoff } from '../store/handoff.js';
import { inline } from '../store/markdown.js';

function mermaidLabel(text: string): string {
  const flat = inline(text)
    .replace(/["`<>{}[\]|#;]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}

/** The chain graph: the changed handoffs, their ancestors and descendants. */
export function mermaidChain(changed: readonly Handoff[], all: readonly Handoff[]): string {
  const byId = new Map(all.map((h) => [h.meta.id, h]));
  const children = new Map<string, Handoff[]>();
  for (const h of all) if (h.meta.parent) children.set(h.meta.parent, [...(children.get(h.meta.parent) ?? []), h]);
  const shown = new Set<string>();
  const walk = (id: string | null, next: (h: Handoff) => Array<string | null>) => {
    const stack = [id];
    while (stack.length > 0) {
      const current = stack.pop();
      if (!current || shown.has(current) || !byId.has(current)) continue;
      shown.add(current);
      stack.push(...next(byId.get(current)!));
    }
  };
  for (const h of changed) {
    shown.delete(h.meta.id);
    walk(h.meta.id, (x) => [x.meta.parent]);
    shown.delete(h.meta.id);
    walk(h.meta.id, (x) => (children.get(x.meta.id) ?? []).map((c) => c.meta.id));
  }
  if (shown.size === 0) return '';
  const ids = [...shown].sort();
  const lines = ['```mermaid', 'graph TD'];
  for (const id of ids) {
    const h = byId.get(id)!;
    lines.push(`  h${id}["${id.slice(0, 8)}: ${mermaidLabel(h.meta.goal)} (${h.meta.status})"]`);
  }
  for (const id of ids) {
    const parent = byId.get(id)!.meta.parent;
    if (parent && shown.has(parent)) lines.push(`  h${parent} --> h${id}`);
  }
  lines.push('```');
  return lines.join('\n');
}
