import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';

/** At most this many links per answer are read, and this many characters of each. */
const MAX_LINKS_FOLLOWED = 4;
const MAX_LINKED_CHARS = 16 * 1024;

type Content = NonNullable<CallToolResult['content']>;

/**
 * A tool answer's `resource_link` parts read from the same server
 * (`resources/read`), so the model gets the text instead of a URI it cannot
 * open. Text only and bounded: binary contents, oversized text, a failed read
 * or links past the limit become a note saying so.
 */
export async function followResourceLinks(
  content: Content,
  read: (uri: string, signal: AbortSignal) => Promise<ReadResourceResult>,
  signal: AbortSignal,
): Promise<Content> {
  let followed = 0;
  const out: Content = [];
  for (const part of content) {
    if (part.type !== 'resource_link') {
      out.push(part);
      continue;
    }
    const label = `[resource ${part.uri}${part.name ? ` (${part.name})` : ''}]`;
    if (followed >= MAX_LINKS_FOLLOWED) {
      out.push(
        note(`${label} not read: only ${MAX_LINKS_FOLLOWED} links per answer are followed.`),
      );
      continue;
    }
    followed += 1;
    let result: ReadResourceResult;
    try {
      result = await read(part.uri, signal);
    } catch (error) {
      signal.throwIfAborted();
      out.push(
        note(
          `${label} could not be read: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
      continue;
    }
    out.push(note(`${label}\n${linkedText(result)}`));
  }
  return out;
}

function linkedText(result: ReadResourceResult): string {
  const texts: string[] = [];
  for (const item of result.contents) {
    if (!('text' in item) || typeof item.text !== 'string') {
      const type = item.mimeType ?? 'unknown type';
      texts.push(`[binary content (${type}) not shown: only text resources are read]`);
      continue;
    }
    texts.push(item.text);
  }
  const text = texts.join('\n');
  if (text.length <= MAX_LINKED_CHARS) return text;
  return `${text.slice(0, MAX_LINKED_CHARS)}\n[resource cut: ${text.length} characters, only the first ${MAX_LINKED_CHARS} are shown]`;
}

const note = (text: string): Content[number] => ({ type: 'text', text });
