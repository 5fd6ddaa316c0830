import { adkToRaw } from './adk-to-raw.js';
import { adkUnmapped } from './adk-unmapped.js';
import { parseYamlText } from './data-file.js';
import { isRecord } from './describe-value.js';
import type { PreparedFile } from './prepared-file.js';
import { placeNotes, translatingMapper } from './translating-mapper.js';
import { formatMismatch, pickYamlFormat } from './yaml-format.js';

/**
 * A Cadre YAML definition, or an ADK agent config (ADK-only fields, or the
 * file name root_agent.yaml). Fields of the other format are errors that
 * say which format was assumed and why.
 */
export async function readYamlDefinition(file: string, text: string): Promise<PreparedFile> {
  const yaml = await import('yaml');
  const parsed = parseYamlText(yaml, text);
  const data = parsed.data;
  if (parsed.issues.length > 0 || !isRecord(data)) {
    // A syntax error stops here: what follows it would only repeat it.
    return {
      prepared: { raw: data, mapper: parsed.mapper, issues: parsed.issues },
      source: { file, format: 'yaml' },
    };
  }
  const format = pickYamlFormat(file, data);
  const mismatch = formatMismatch(format, data);
  const aboutKeys =
    format.kind === 'adk' ? [...mismatch.notes, ...adkUnmapped(data)] : mismatch.notes;
  // These notes are about a key, not its value.
  const keyNotes = aboutKeys.map((note) => {
    const at = parsed.mapper.position(note.path, 'key');
    return at ? { ...note, at } : note;
  });
  if (format.kind === 'adk') {
    const built = adkToRaw(data);
    return {
      prepared: {
        raw: built.raw,
        mapper: translatingMapper(parsed.mapper, built.rules),
        issues: placeNotes([...keyNotes, ...built.notes], parsed.mapper),
      },
      source: { file, format: 'yaml', foreign: 'adk' },
    };
  }
  const raw = Object.fromEntries(
    Object.entries(data).filter(([key]) => !mismatch.dropped.includes(key)),
  );
  return {
    prepared: { raw, mapper: parsed.mapper, issues: placeNotes(keyNotes, parsed.mapper) },
    source: { file, format: 'yaml' },
  };
}
