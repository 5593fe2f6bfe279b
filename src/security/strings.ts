// Every string inside a value (objects, arrays, nested), for the redaction that replaces
// them (secrets.ts) and for the one that first asks whether any is new (remembered.ts).
// Free of the patterns, so walking a value loads none of them.

/** `value` with each string inside it replaced by `fn(string)`. */
export function mapStrings<T>(value: T, fn: (text: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return fn(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/**
 * Visits what redaction is remembered by, without copying `value`: each string, except
 * that a list of strings only (a prompt part's paths) is one visit of the whole list.
 */
export function eachText(
  value: unknown,
  onText: (text: string) => void,
  onList: (list: readonly string[]) => void,
): void {
  if (typeof value === 'string') onText(value);
  else if (Array.isArray(value)) {
    if (value.length > 0 && value.every((v) => typeof v === 'string')) onList(value as string[]);
    else for (const v of value) eachText(v, onText, onList);
  } else if (value !== null && typeof value === 'object')
    for (const v of Object.values(value)) eachText(v, onText, onList);
}
