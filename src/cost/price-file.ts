import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../errors/cadre-error.js';
import { DEFAULT_PRICES, type ModelPrice, type PriceTable } from './prices.js';

/** Where a project keeps its own prices, unless CADRE_PRICES names a file. */
export const PROJECT_PRICE_FILE = path.join('.cadre', 'prices.json');

/**
 * The built-in prices with a project's own on top: `CADRE_PRICES` (a path)
 * or `.cadre/prices.json`, mapping model ids to `{input, output,
 * cachedInput?}` in dollars per million tokens. No file means the built-ins;
 * a bad file is an error naming the file and the model.
 */
export async function loadPrices(cwd: string, env: NodeJS.ProcessEnv): Promise<PriceTable> {
  const named = env.CADRE_PRICES?.trim();
  const file = path.resolve(cwd, named || PROJECT_PRICE_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !named) return DEFAULT_PRICES;
    throw new ConfigError(`Price file not readable: ${named ?? PROJECT_PRICE_FILE}`);
  }
  return { ...DEFAULT_PRICES, ...parsePrices(text, named ?? PROJECT_PRICE_FILE) };
}

export function parsePrices(text: string, file: string): Record<string, ModelPrice> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  if (!isRecord(data)) throw new ConfigError(`${file}: expected a mapping of model ids to prices`);
  const prices: Record<string, ModelPrice> = {};
  for (const [model, entry] of Object.entries(data)) {
    const fields = isRecord(entry) ? entry : {};
    const number = (key: string): number | undefined =>
      typeof fields[key] === 'number' && (fields[key] as number) >= 0
        ? (fields[key] as number)
        : undefined;
    const input = number('input');
    const output = number('output');
    if (input === undefined || output === undefined)
      throw new ConfigError(
        `${file}: ${model}: expected {"input": n, "output": n, "cachedInput"?: n} in dollars per million tokens`,
      );
    const cachedInput = number('cachedInput');
    prices[model.toLowerCase()] = {
      input,
      output,
      ...(cachedInput === undefined ? {} : { cachedInput }),
    };
  }
  return prices;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
