import { adkToRaw, isAdkConfig } from './adk-to-raw.js';
import { parseYamlText } from './data-file.js';
import type { PreparedFile } from './prepared-file.js';
import { placeNotes, translatingMapper } from './translating-mapper.js';

/** A Cadre YAML definition, or an ADK agent config (recognised by `agent_class` / `instruction`). */
export async function readYamlDefinition(file: string, text: string): Promise<PreparedFile> {
  const yaml = await import('yaml');
  const parsed = parseYamlText(yaml, text);
  if (parsed.issues.length === 0 && isAdkConfig(parsed.data)) {
    const built = adkToRaw(parsed.data);
    return {
      prepared: {
        raw: built.raw,
        mapper: translatingMapper(parsed.mapper, built.rules),
        issues: placeNotes(built.notes, parsed.mapper),
      },
      source: { file, format: 'yaml', foreign: 'adk' },
    };
  }
  return {
    prepared: { raw: parsed.data, mapper: parsed.mapper, issues: parsed.issues },
    source: { file, format: 'yaml' },
  };
}
