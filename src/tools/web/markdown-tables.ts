import type TurndownService from 'turndown';

/** The part of a DOM element the table rules read. */
interface TableNode {
  nodeName: string;
  parentNode: TableNode | null;
  /** domino answers undefined, browsers null, when nothing matches. */
  querySelector(selector: string): TableNode | null | undefined;
  getElementsByTagName(name: string): ArrayLike<TableNode>;
  childNodes: ArrayLike<TableNode>;
}

// Cells holding these make a layout table: left as paragraphs rather than squeezed into one line.
const LAYOUT_CONTENT = 'table, p, div, ul, ol, pre, blockquote, h1, h2, h3, h4, h5, h6';

function tableOf(node: TableNode): TableNode | undefined {
  for (let current: TableNode | null = node; current !== null; current = current.parentNode) {
    if (current.nodeName === 'TABLE') return current;
  }
  return undefined;
}

const cellCount = (row: TableNode): number =>
  Array.from(row.childNodes).filter((child) => child.nodeName === 'TD' || child.nodeName === 'TH')
    .length;

/** Renders data tables as Markdown pipe tables; the first row is the header. */
export function pipeTables(service: TurndownService): void {
  // Per table, worked out once: asking for every cell and row would be quadratic on big tables.
  const dataTables = new WeakMap<TableNode, boolean>();
  const firstRows = new WeakMap<TableNode, TableNode | undefined>();
  const isDataTable = (table: TableNode): boolean => {
    let verdict = dataTables.get(table);
    if (verdict === undefined) {
      verdict = !table.querySelector(LAYOUT_CONTENT);
      dataTables.set(table, verdict);
    }
    return verdict;
  };
  const isFirstRow = (row: TableNode, table: TableNode): boolean => {
    if (!firstRows.has(table)) firstRows.set(table, table.getElementsByTagName('tr')[0]);
    return firstRows.get(table) === row;
  };
  const when =
    (tags: readonly string[]) =>
    (node: unknown): boolean => {
      const element = node as TableNode;
      if (!tags.includes(element.nodeName)) return false;
      const table = tableOf(element);
      return table !== undefined && isDataTable(table);
    };
  service.addRule('tableCell', {
    filter: when(['TD', 'TH']),
    replacement: (content) => ` ${content.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|')} |`,
  });
  service.addRule('tableRow', {
    filter: when(['TR']),
    replacement: (content, node) => {
      const row = node as unknown as TableNode;
      const table = tableOf(row);
      const first = table !== undefined && isFirstRow(row, table);
      const rule = first ? `\n|${' --- |'.repeat(cellCount(row))}` : '';
      return `\n|${content}${rule}`;
    },
  });
  service.addRule('tableSection', {
    filter: when(['THEAD', 'TBODY', 'TFOOT']),
    replacement: (content) => content,
  });
  service.addRule('tableCaption', {
    filter: when(['CAPTION']),
    replacement: (content) => `${content.trim()}\n\n`,
  });
  service.addRule('table', {
    filter: when(['TABLE']),
    replacement: (content) => `\n\n${content.trim()}\n\n`,
  });
}
