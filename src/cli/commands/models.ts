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

/** `cadre models pull <uri>`: downloads a GGUF model into the models folder, with a progress bar. */
export async function modelsPullCommand(uri: string, io: CliIO): Promise<number> {
  const style = createStyle(io.isTTY && !io.env.NO_COLOR);
  const bar = progressBar(io);
  const controller = new AbortController();
  const unsubscribe = io.onInterrupt?.(() => controller.abort());
  try {
    const pulled = await pullModel(uri, io.env, { onProgress: bar, signal: controller.signal });
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

/** `cadre models list`: the models pulled so far, with their sizes. */
export async function modelsListCommand(options: JsonFlag, io: CliIO): Promise<number> {
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
