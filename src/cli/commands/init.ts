import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { EXIT, type CliIO } from '../cli-io.js';
import { reportError } from '../report-error.js';
import { createStyle } from '../style.js';
import { STARTER_FILES } from './init-files.js';

/**
 * `cadre init [dir]`: a starter project: an agent in agents/, a code tool in
 * tools/, a policy file, and `.cadre/` (database, keys, runs) kept out of
 * git. Existing files are never overwritten: if any starter file is there
 * already, nothing is written. A `.gitignore` that exists gets the line added.
 */
export async function initCommand(dir: string | undefined, io: CliIO): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  try {
    const root = resolve(io.cwd, dir ?? '.');
    const present: string[] = [];
    for (const file of Object.keys(STARTER_FILES))
      if (await exists(join(root, file))) present.push(file);
    if (present.length > 0) {
      io.stderr(
        `${style.red('error')} not overwriting ${present.join(', ')} in ${shown(io, root)}: nothing was written. Move them aside, or init another folder (cadre init DIR).\n`,
      );
      return EXIT.failed;
    }
    for (const [file, text] of Object.entries(STARTER_FILES)) {
      await mkdir(dirname(join(root, file)), { recursive: true });
      await writeFile(join(root, file), text, { flag: 'wx' });
    }
    const ignore = await keepStateOutOfGit(join(root, '.gitignore'));
    const created = [
      ...Object.keys(STARTER_FILES),
      ...(ignore === 'created' ? ['.gitignore'] : []),
    ];
    io.stdout(`Created in ${shown(io, root)}:\n${created.map((file) => `  ${file}\n`).join('')}`);
    if (ignore === 'added') io.stdout('  .gitignore: added .cadre/\n');
    const cd = dir ? `cd ${dir} && ` : '';
    io.stdout(
      [
        '',
        'Next:',
        `  ${cd}cadre trust                    # after reading tools/ and policy.yaml: lets cadre load them`,
        '  cadre validate agents          # check the agent',
        '  cadre tools                    # the built-in tools and tools/word-count.tool.ts',
        '  cadre run helper "How many words are in README.md?" --policy policy.yaml',
        '',
        'A run needs a model: set GEMINI_API_KEY (or OPENAI_API_KEY with --model openai:gpt-4.1,',
        'ANTHROPIC_API_KEY with --model sonnet, or --model ollama:<id>). .cadre/ holds the',
        'database, keys and recordings, and stays out of git.',
        '',
      ].join('\n'),
    );
    return EXIT.ok;
  } catch (error) {
    return reportError(error, io.stderr, style);
  }
}

/** Adds `.cadre/` to a .gitignore, creating it if need be; never removes a line. */
async function keepStateOutOfGit(file: string): Promise<'created' | 'added' | 'kept'> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) {
    await writeFile(file, GITIGNORE, { flag: 'wx' });
    return 'created';
  }
  if (text.split(/\r?\n/).some((line) => /^\/?\.cadre\/?(\*\*?)?$/.test(line.trim())))
    return 'kept';
  await writeFile(file, `${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${GITIGNORE}`);
  return 'added';
}

const GITIGNORE = "# Cadre's state: database, audit key, recordings\n.cadre/\n";

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

function shown(io: CliIO, root: string): string {
  return relative(io.cwd, root) || '.';
}
