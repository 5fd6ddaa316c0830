import { homedir } from 'node:os';
import type * as Yaml from 'yaml';
import { parseYamlText } from './data-file.js';
import { isPlainObject } from './describe-value.js';
import { bodyToPrompt, splitFrontmatter } from './frontmatter.js';
import { readFrontmatterLines } from './frontmatter-line-reader.js';
import { geminiRefusals } from './gemini-refusals.js';
import { identityMapper, type SourceMapper } from './issues.js';
import { detectDialect, markdownToRaw } from './markdown-to-raw.js';
import { resolveNamedServers } from './named-mcp-servers.js';
import { settingsMcpServers, withSettingsServers } from './settings-mcp-servers.js';
import type { LoadOptions } from './load-options.js';
import type { PreparedFile } from './prepared-file.js';
import { DEFAULT_KNOWN_TOOLS } from './tool-names.js';
import { placeNotes, translatingMapper, type SourceNote } from './translating-mapper.js';

interface Frontmatter {
  data: Record<string, unknown>;
  mapper: SourceMapper;
  notes: SourceNote[];
}

/** Strict YAML first; the line reader when strict YAML rejects what real agent files contain. */
function readFrontmatter(yaml: typeof Yaml, text: string, lineOffset: number): Frontmatter {
  const strict = parseYamlText(yaml, text, lineOffset);
  if (strict.issues.length === 0 && (isPlainObject(strict.data) || strict.data === null)) {
    return {
      data: (strict.data ?? {}) as Record<string, unknown>,
      mapper: strict.mapper,
      notes: [],
    };
  }
  const lenient = readFrontmatterLines(yaml, text, lineOffset);
  const first = strict.issues[0];
  const reason = first?.message.replace(/^invalid YAML: /, '') ?? 'not a mapping';
  const note: SourceNote = {
    path: [],
    message: `frontmatter is not strict YAML (${reason}); read as "key: rest of line"`,
    severity: 'warning',
  };
  return {
    data: lenient.data,
    mapper: lenient.mapper,
    notes: [first?.at ? { ...note, at: first.at } : note],
  };
}

/** A Claude Code / Gemini CLI agent file: YAML frontmatter, and the body as the system prompt. */
export async function readMarkdownDefinition(
  file: string,
  text: string,
  options: LoadOptions,
): Promise<PreparedFile> {
  const yaml = await import('yaml');
  const split = splitFrontmatter(text);
  const knownTools = options.knownTools ?? DEFAULT_KNOWN_TOOLS;
  const prompt = bodyToPrompt(split.body);
  const bodyAt = { line: split.bodyStartLine, column: 1 };
  if (!split.found) {
    const dialect = detectDialect(file, {});
    const built = markdownToRaw({}, prompt, file, knownTools, dialect);
    const refused = dialect === 'gemini-cli' ? ' (Gemini CLI refuses a file without it)' : '';
    const notes: SourceNote[] = [
      {
        path: [],
        message: `no frontmatter; the whole file is the system prompt${refused}`,
        severity: 'warning',
      },
    ];
    const heading = /^#\s+(.+)$/m.exec(prompt)?.[1]?.trim();
    if (heading) built.raw.displayName = heading;
    return {
      prepared: {
        raw: built.raw,
        mapper: translatingMapper(identityMapper, built.rules, [[['promptConfig'], bodyAt]]),
        issues: placeNotes([...notes, ...built.notes], {
          ...identityMapper,
          position: () => ({ line: 1, column: 1 }),
        }),
      },
      source: { file, format: 'markdown', foreign: dialect },
    };
  }
  const fm = readFrontmatter(yaml, split.yamlText, split.yamlStartLine - 1);
  const dialect = detectDialect(file, fm.data);
  const built = markdownToRaw(fm.data, prompt, file, knownTools, dialect);
  const settingsNotes = withSettingsServers(
    built.raw,
    await settingsMcpServers(
      file,
      dialect,
      options.userSettings === false ? undefined : (options.home ?? homedir()),
      options.gate,
    ),
    fm.data.tools,
    options.mcpServers ?? [],
    built.namedServers.map((server) => server.name),
  );
  const refusals = dialect === 'gemini-cli' ? geminiRefusals(fm.data, fm.mapper) : [];
  const namedNotes = resolveNamedServers(
    built.raw,
    built.rules,
    built.namedServers,
    options.mcpServers ?? [],
    options.untrustedHint,
  );
  return {
    prepared: {
      raw: built.raw,
      mapper: translatingMapper(fm.mapper, built.rules, [
        [['promptConfig', 'systemPrompt'], bodyAt],
      ]),
      issues: placeNotes(
        [...fm.notes, ...refusals, ...built.notes, ...settingsNotes, ...namedNotes],
        fm.mapper,
      ),
    },
    source: { file, format: 'markdown', foreign: dialect },
    ...(built.remote ? { remote: built.remote } : {}),
  };
}
