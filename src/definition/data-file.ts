import { errorAt, type PendingIssue, type SourceMapper, type SourcePosition } from './issues.js';
import type { YamlModule } from './lazy-modules.js';
import { yamlMapper } from './yaml-mapper.js';

export interface ParsedData {
  /** Undefined when the text did not parse. */
  data: unknown;
  mapper: SourceMapper;
  issues: PendingIssue[];
}

/** `Nested mappings are not allowed ... at line 2, column 14:\n<excerpt>` → the first sentence. */
const firstLine = (message: string): string =>
  (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?\s*$/, '');

/**
 * Parses YAML, keeping positions. Only the first syntax error is reported,
 * with its line and column: the parser's later errors are mostly that one
 * seen again (an unindented line in a block scalar gives one per line).
 */
export function parseYamlText(yaml: YamlModule, text: string, lineOffset = 0): ParsedData {
  const lineCounter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter, keepSourceTokens: true, prettyErrors: true });
  const mapper = yamlMapper(yaml, doc, lineCounter, lineOffset);
  const first = doc.errors.reduce<(typeof doc.errors)[number] | undefined>(
    (best, error) => (best && best.pos[0] <= error.pos[0] ? best : error),
    undefined,
  );
  if (first) {
    const pos = first.linePos?.[0];
    const at: SourcePosition | undefined = pos
      ? { line: pos.line + lineOffset, column: pos.col }
      : undefined;
    const issue: PendingIssue = {
      ...errorAt([], `invalid YAML: ${firstLine(first.message)}`),
      ...(at ? { at } : {}),
    };
    return { data: undefined, mapper, issues: [issue] };
  }
  return { data: doc.toJS({ maxAliasCount: 100 }), mapper, issues: [] };
}

function positionInText(text: string, offset: number): SourcePosition {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before[before.length - 1]?.length ?? 0) + 1 };
}

/**
 * Parses strict JSON; positions come from the same text read as YAML (JSON
 * is a subset), so JSON errors carry line:column like YAML ones.
 */
export function parseJsonText(yaml: YamlModule, text: string): ParsedData {
  const { mapper } = parseYamlText(yaml, text);
  try {
    return { data: JSON.parse(text) as unknown, mapper, issues: [] };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const offset = /at position (\d+)/.exec(message)?.[1];
    const at =
      offset === undefined
        ? positionInText(text, text.length)
        : positionInText(text, Number(offset));
    const reason = message
      .replace(/\s*\(line \d+ column \d+\)$/, '')
      .replace(/ in JSON at position \d+$/, '');
    return { data: undefined, mapper, issues: [{ ...errorAt([], `invalid JSON: ${reason}`), at }] };
  }
}

/** Text as loaders want it: no BOM, LF line ends (positions are unchanged). */
export const normalizeText = (text: string): string =>
  text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
