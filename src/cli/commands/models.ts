import { EXIT, type CliIO } from '../cli-io.js';
import { reportError } from '../report-error.js';
import { createStyle } from '../style.js';
import type { JsonFlag } from '../options/output-options.js';
import {
  listModels,
  pullModel,
  removeModel,
  type PullProgress,
} from '../../model/local-model-store.js';
import { modelsDir } from '../../model/local-model-ref.js';
import { LOCAL_MODEL_ALIASES, localModelAlias } from '../../model/local-model-aliases.js';

/** `cadre models pull <uri|alias>`: downloads a GGUF model into the models folder, with a progress bar. */
export async function modelsPullCommand(uri: string, io: CliIO): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  const bar = progressBar(io);
  const controller = new AbortController();
  const unsubscribe = io.onInterrupt?.(() => controller.abort());
  try {
    const pulled = await pullModel(localModelAlias(uri) ?? uri, io.env, {
      onProgress: bar,
      signal: controller.signal,
    });
    bar.done();
    io.stdout(`${pulled.file} (${megabytes(pulled.bytes)})\n`);
    io.stdout(`Use it: cadre run <agent> --model local:${uri}\n`);
    return EXIT.ok;
  } catch (error) {
    bar.done();
    if (controller.signal.aborted) return EXIT.interrupted;
    return reportError(error, io.stderr, style);
  } finally {
    unsubscribe?.();
  }
}

export type ModelsListOptions = JsonFlag & {
  /** The short aliases of known small models instead of the pulled ones. */
  available?: boolean;
};

/** `cadre models list [--available]`: the models pulled so far, with their sizes; or the aliases. */
export async function modelsListCommand(options: ModelsListOptions, io: CliIO): Promise<number> {
  if (options.available) return listAvailable(options, io);
  const models = await listModels(io.env);
  if (options.json) {
    io.stdout(`${JSON.stringify(models, null, 2)}\n`);
    return EXIT.ok;
  }
  if (models.length === 0)
    io.stdout(`No models in ${modelsDir(io.env)}: cadre models pull hf:<user>/<repo>:<quant>\n`);
  for (const model of models) io.stdout(`${model.name}  ${megabytes(model.bytes)}\n`);
  return EXIT.ok;
}

/** `cadre models rm <name>`: removes one pulled model by the name `list` shows. */
export async function modelsRmCommand(name: string, io: CliIO): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  try {
    const removed = await removeModel(name, io.env);
    io.stdout(`Removed ${removed.file} (${megabytes(removed.bytes)})\n`);
    return EXIT.ok;
  } catch (error) {
    return reportError(error, io.stderr, style);
  }
}

function listAvailable(options: JsonFlag, io: CliIO): number {
  if (options.json) {
    io.stdout(`${JSON.stringify(LOCAL_MODEL_ALIASES, null, 2)}\n`);
    return EXIT.ok;
  }
  const rows = [
    ['ALIAS', 'MODEL', 'SIZE', 'LICENCE'],
    ...LOCAL_MODEL_ALIASES.map((m) => [m.alias, m.uri, m.size, m.licence]),
  ];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]?.length ?? 0)));
  for (const row of rows)
    io.stdout(
      `${row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd()}\n`,
    );
  io.stderr('Pull one with `cadre models pull <alias>`, run it with --model local:<alias>.\n');
  return EXIT.ok;
}

const megabytes = (bytes: number): string => `${(bytes / 1_000_000).toFixed(1)} MB`;

const WIDTH = 30;

/** On a terminal a bar redrawn in place; elsewhere a line at each quarter. */
function progressBar(io: CliIO): ((progress: PullProgress) => void) & { done(): void } {
  let lastQuarter = -1;
  let drawn = false;
  const draw = ({ downloadedBytes, totalBytes }: PullProgress): void => {
    const share = totalBytes > 0 ? Math.min(1, downloadedBytes / totalBytes) : 0;
    const text = `${Math.floor(share * 100)}% ${megabytes(downloadedBytes)} of ${megabytes(totalBytes)}`;
    if (io.isTTY) {
      const filled = Math.round(share * WIDTH);
      io.stderr(`\r[${'#'.repeat(filled)}${' '.repeat(WIDTH - filled)}] ${text}`);
      drawn = true;
      return;
    }
    const quarter = Math.floor(share * 4);
    if (quarter === lastQuarter) return;
    lastQuarter = quarter;
    io.stderr(`${text}\n`);
  };
  return Object.assign(draw, {
    done: () => {
      if (drawn) io.stderr('\n');
      drawn = false;
    },
  });
}
