import type { Document, LineCounter, Node as YamlNode } from 'yaml';
import type { IssueAnchor, IssuePath, SourceMapper, SourcePosition } from './issues.js';
import type { YamlModule } from './lazy-modules.js';

interface Found {
  node: unknown;
  key: unknown;
  complete: boolean;
}

/**
 * Positions from a parsed YAML (or JSON) document: walks the path through
 * maps and sequences; a path that does not exist (a missing field) points at
 * the nearest parent that does. `lineOffset` shifts Markdown frontmatter.
 */
export function yamlMapper(
  yaml: YamlModule,
  doc: Document.Parsed,
  lineCounter: LineCounter,
  lineOffset = 0,
): SourceMapper {
  const positionOf = (node: unknown): SourcePosition | undefined => {
    const range = (node as YamlNode | null)?.range;
    if (!range) return undefined;
    const { line, col } = lineCounter.linePos(range[0]);
    return { line: line + lineOffset, column: col };
  };

  const walk = (path: IssuePath): Found => {
    let node: unknown = doc.contents;
    let key: unknown = undefined;
    for (const segment of path) {
      let next: { node: unknown; key: unknown } | undefined;
      if (yaml.isMap(node)) {
        const pair = node.items.find(
          (p) => String(yaml.isScalar(p.key) ? p.key.value : p.key) === String(segment),
        );
        if (pair) next = { node: pair.value, key: pair.key };
      } else if (yaml.isSeq(node)) {
        const item = node.items[Number(segment)];
        if (item !== undefined) next = { node: item, key: item };
      }
      if (!next) return { node, key, complete: false };
      ({ node, key } = next);
    }
    return { node, key, complete: true };
  };

  return {
    display: (path) => path,
    position(path: IssuePath, anchor: IssueAnchor): SourcePosition | undefined {
      const found = walk(path);
      const preferKey = anchor === 'key' || !found.complete;
      const at = preferKey
        ? (positionOf(found.key) ?? positionOf(found.node))
        : (positionOf(found.node) ?? positionOf(found.key));
      return at ?? { line: 1 + lineOffset, column: 1 };
    },
  };
}
