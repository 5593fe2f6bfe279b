// Templates are plain text with {{name}} placeholders, each alone on its line. A value is
// inserted exactly as given (pins pass through here, so nothing is trimmed or collapsed);
// a placeholder with no value is removed with its line and the blank line after it, so
// optional parts vanish without leaving gaps.
export function fill(template: string, values: Record<string, string | undefined>): string {
  const lines = template.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const name = /^\{\{([a-z_]+)\}\}$/.exec(line)?.[1];
    if (name === undefined) {
      out.push(line);
      continue;
    }
    const value = values[name];
    if (value === undefined || value === '') {
      if (lines[i + 1] === '') i++;
      continue;
    }
    out.push(value);
  }
  return out.join('\n');
}
