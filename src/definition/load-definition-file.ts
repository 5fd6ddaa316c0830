import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ValidationError } from '../errors/validation-error.js';
import { normalizeText } from './data-file.js';
import type { LoadOptions, LoadResult } from './load-options.js';
import { withPlaceholders } from './load-placeholders.js';
import type { PreparedFile } from './prepared-file.js';
import { displayFile } from './validate-context.js';
import { checkPrepared } from './validate-definition.js';
import { withTrustedRemote } from './trusted-remote.js';
import { withTrustedServers } from './trusted-servers.js';

type TextReader = (file: string, text: string, options: LoadOptions) => Promise<PreparedFile>;

/** Readers load lazily: a process that only runs a TS-defined agent never loads yaml, and vice versa. */
const TEXT_READERS: Readonly<Record<string, () => Promise<TextReader>>> = {
  '.yaml': async () => (await import('./load-yaml.js')).readYamlDefinition,
  '.yml': async () => (await import('./load-yaml.js')).readYamlDefinition,
  '.json': async () => (await import('./load-json.js')).readJsonDefinition,
  '.md': async () => (await import('./load-markdown.js')).readMarkdownDefinition,
};

export const MODULE_EXTENSIONS: readonly string[] = ['.ts', '.mts', '.js', '.mjs'];
export const DEFINITION_EXTENSIONS: readonly string[] = [
  ...Object.keys(TEXT_READERS),
  ...MODULE_EXTENSIONS,
];

const fileError = (file: string, cwd: string, message: string): ValidationError =>
  new ValidationError([
    { path: '', message, file: displayFile(file, cwd) ?? file, severity: 'error' },
  ]);

/**
 * Loads one agent definition file — Cadre YAML / JSON, Markdown agents
 * (Claude Code, Gemini CLI), ADK YAML configs, or TS / JS modules — and
 * returns it normalised with its warnings. Throws one `ValidationError`
 * listing every problem, each with file, line, column and field.
 */
export async function loadDefinition(file: string, options: LoadOptions = {}): Promise<LoadResult> {
  const cwd = options.cwd ?? process.cwd();
  const absolute = path.resolve(cwd, file);
  const extension = path.extname(absolute).toLowerCase();
  if (MODULE_EXTENSIONS.includes(extension)) {
    if (options.modules === false)
      throw fileError(
        absolute,
        cwd,
        'a code module here is not imported (only declared agent folders run code)',
      );
    if (options.gate && !(await options.gate.allows(absolute, 'agent module')))
      throw fileError(
        absolute,
        cwd,
        `not imported: this project's code is not trusted (cadre trust ${displayFile(absolute, cwd) ?? absolute})`,
      );
    return (await import('./load-module.js')).loadModuleDefinition(absolute, { ...options, cwd });
  }
  const reader = TEXT_READERS[extension];
  if (!reader) {
    throw fileError(
      absolute,
      cwd,
      `unsupported file type "${extension || '(none)'}"; use ${DEFINITION_EXTENSIONS.join(', ')}`,
    );
  }
  let text: string;
  try {
    text = normalizeText(await readFile(absolute, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw fileError(
      absolute,
      cwd,
      code === 'ENOENT' ? 'file not found' : `cannot read the file (${code ?? String(error)})`,
    );
  }
  const { prepared, source, remote } = await (await reader())(absolute, text, options);
  const loaded = withPlaceholders(
    checkPrepared(prepared, { ...options, cwd, source, baseDir: path.dirname(absolute) }),
    { raw: prepared.raw, mapper: prepared.mapper, text, file: displayFile(absolute, cwd) },
  );
  if (remote) loaded.definition.remote = remote;
  const trusted = await withTrustedServers(loaded, absolute, options.gate, cwd);
  if (source.foreign !== 'adk') return withTrustedRemote(trusted, absolute, options.gate, cwd);
  // An ADK config names its sub-agents by file: load them too (each gated by its own load).
  const { withAdkTree } = await import('./adk-tree.js');
  const tree = await withAdkTree(trusted, absolute, text, { ...options, cwd }, loadDefinition);
  return withTrustedRemote(tree, absolute, options.gate, cwd);
}
