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
