import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { ConfigError } from '../errors/cadre-error.js';
import type { FileGate } from '../contracts/file-gate.js';
import { DEFAULT_PRICES, type ModelPrice, type PriceTable } from './prices.js';

/** Where a project keeps its own prices, unless CADRE_PRICES names a file. */
const PROJECT_PRICE_FILE = path.join('.cadre', 'prices.json');

/**
 * The built-in prices with a project's own on top: `CADRE_PRICES` (a path)
 * or `.cadre/prices.json`, mapping model ids to `{input, output,
 * cachedInput?}` in dollars per million tokens. No file means the built-ins;
 * a bad file is an error naming the file and the model.
 */
export async function loadPrices(
  cwd: string,
  env: NodeJS.ProcessEnv,
  /** Workspace trust: a price file in the project is read only when it allows it. */
  gate?: FileGate,
): Promise<PriceTable> {
  const named = env.CADRE_PRICES?.trim();
  const file = path.resolve(cwd, named || PROJECT_PRICE_FILE);
  if (gate && !(await gate.allows(file, 'prices'))) return DEFAULT_PRICES;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !named) return DEFAULT_PRICES;
    throw new ConfigError(`Price file not readable: ${named ?? PROJECT_PRICE_FILE}`);
  }
  return { ...DEFAULT_PRICES, ...parsePrices(text, named ?? PROJECT_PRICE_FILE) };
}

const ENTRY = '{"input": n, "output": n, "cachedInput"?: n} in dollars per million tokens';
const dollars = z
  .number({ error: `expected a number (an entry is ${ENTRY})` })
  .nonnegative({ error: 'expected a number of dollars, not below 0' });

/** A price file: model ids to prices; each message names what to write instead. */
const priceFileSchema = z.record(
  z.string(),
  z.object(
    { input: dollars, output: dollars, cachedInput: dollars.optional() },
    { error: `expected ${ENTRY}` },
  ),
  { error: 'expected a mapping of model ids to prices' },
);

export function parsePrices(text: string, file: string): Record<string, ModelPrice> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = priceFileSchema.safeParse(data);
  if (!parsed.success) {
    // `prices.json: gpt-4.1: output: expected a number …` (model ids hold dots, so no dotted path).
    const lines = parsed.error.issues.map((issue) =>
      [file, ...issue.path.map(String), issue.message].join(': '),
    );
    throw new ConfigError(lines.join('\n'));
  }
  const prices: Record<string, ModelPrice> = {};
  for (const [model, { input, output, cachedInput }] of Object.entries(parsed.data)) {
    prices[model.toLowerCase()] = {
      input,
      output,
      ...(cachedInput === undefined ? {} : { cachedInput }),
    };
  }
  return prices;
}
