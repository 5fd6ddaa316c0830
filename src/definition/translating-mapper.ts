import type { IssuePath, PendingIssue, SourceMapper, SourcePosition } from './issues.js';

/** `[raw path prefix, source path prefix]`: `modelConfig.temp` was written as `temperature`. */
export type PathRule = readonly [IssuePath, IssuePath];

const startsWith = (path: IssuePath, prefix: IssuePath): boolean =>
  prefix.length <= path.length && prefix.every((segment, i) => String(segment) === String(path[i]));

/**
 * A mapper for definitions built from a foreign file: issue paths of the
 * built object are shown and located as the author's own keys.
 * `fixed` pins paths that have no key at all (a Markdown body).
 */
export function translatingMapper(
  base: SourceMapper,
  rules: readonly PathRule[],
  fixed: readonly (readonly [IssuePath, SourcePosition])[] = [],
): SourceMapper {
  const translate = (path: IssuePath): IssuePath => {
    let best: PathRule | undefined;
    for (const rule of rules) {
      if (startsWith(path, rule[0]) && (!best || rule[0].length > best[0].length)) best = rule;
    }
    return best ? [...best[1], ...path.slice(best[0].length)] : path;
  };
  return {
    display: (path) => base.display(translate(path)),
    position(path, anchor) {
      const pinned = fixed.find(([prefix]) => startsWith(path, prefix));
      return pinned ? pinned[1] : base.position(translate(path), anchor);
    },
  };
}

/** A note a loader makes about the author's own keys (an ignored field, a fallback). */
export interface SourceNote {
  path: IssuePath;
  message: string;
  severity: 'error' | 'warning';
  /** Known position (otherwise the position of `path`). */
  at?: SourcePosition;
}

/** Loader notes → pending issues already placed in the source file. */
export const placeNotes = (notes: readonly SourceNote[], base: SourceMapper): PendingIssue[] =>
  notes.map((note) => {
    const at = note.at ?? base.position(note.path, 'value');
    return {
      path: note.path,
      displayPath: note.path,
      message: note.message,
      severity: note.severity,
      ...(at ? { at } : {}),
    };
  });
