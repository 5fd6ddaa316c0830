/**
 * The JSON value a model wrote, wherever it put it: the whole reply, a fenced
 * code block, or the outermost [...] / {...} inside prose. Undefined if none parses.
 */
export function jsonInText(text: string): unknown {
  const candidates = [text.trim()];
  for (const match of text.matchAll(/```[a-zA-Z]*[ \t]*\n?([\s\S]*?)```/g)) {
    if (match[1]) candidates.push(match[1].trim());
  }
  candidates.push(between(text, '[', ']'), between(text, '{', '}'));
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      return JSON.parse(candidate) as unknown;
    } catch {
      // not this one; try the next candidate
    }
  }
  return undefined;
}

function between(text: string, open: string, close: string): string {
  const start = text.indexOf(open);
  const end = text.lastIndexOf(close);
  return start >= 0 && end > start ? text.slice(start, end + 1) : '';
}

const LIST_KEYS = ['sub_queries', 'subQueries', 'queries', 'questions'];
const ITEM_KEYS = ['query', 'question', 'text'];

/**
 * Sub-queries from a decomposition reply: a JSON list of strings (or of
 * objects with a `query`), possibly wrapped in an object or a code fence.
 * Blank and repeated entries are dropped; at most `max` are kept.
 */
export function parseSubQueries(text: string, max: number): string[] {
  let value = jsonInText(text);
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    value = LIST_KEYS.map((key) => record[key]).find(Array.isArray);
  }
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  const queries: string[] = [];
  for (const item of value) {
    const query = itemText(item)?.trim();
    if (!query || seen.has(query.toLowerCase())) continue;
    seen.add(query.toLowerCase());
    queries.push(query);
  }
  return queries.slice(0, max);
}

function itemText(item: unknown): string | undefined {
  if (typeof item === 'string') return item;
  if (typeof item !== 'object' || item === null) return undefined;
  const record = item as Record<string, unknown>;
  const found = ITEM_KEYS.map((key) => record[key]).find((v) => typeof v === 'string');
  return typeof found === 'string' ? found : undefined;
}
