import { parseJsonText } from './data-file.js';
import type { PreparedFile } from './prepared-file.js';

/** A Cadre JSON definition (spec camelCase, proto snake_case or proto3 JSON names). */
export async function readJsonDefinition(file: string, text: string): Promise<PreparedFile> {
  const yaml = await import('yaml');
  const parsed = parseJsonText(yaml, text);
  return {
    prepared: { raw: parsed.data, mapper: parsed.mapper, issues: parsed.issues },
    source: { file, format: 'json' },
  };
}
