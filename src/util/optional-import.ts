import { ConfigError } from '../errors/cadre-error.js';
import { npmInstall } from './npm-install.js';

/**
 * Packages a feature needs that `npm install cadre` leaves out (optional
 * peers), and how the message names them.
 */
export interface OptionalPackages {
  /** The message's subject and verb: "Gemini models need", "cadre serve needs". */
  needs: string;
  /** What to install, in the order the message names them. */
  packages: readonly string[];
  /** Stand-ins for the last package (pg for libsql): named after it, and explained when missing too. */
  or?: readonly string[];
}

/**
 * Runs `load` (a dynamic import). When it fails because one of the named
 * packages is not installed, throws a ConfigError that says what to
 * install, instead of Node's ERR_MODULE_NOT_FOUND; any other failure
 * (a broken package, a missing dependency of theirs) passes through.
 */
export async function optionalImport<T>(
  load: () => Promise<T>,
  needs: OptionalPackages,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing = missingPackage(error);
    if (missing !== undefined && [...needs.packages, ...(needs.or ?? [])].includes(missing))
      throw new ConfigError(missingMessage(needs), { cause: error });
    throw error;
  }
}

/** `Gemini models need @google/genai: npm install @google/genai` */
export function missingMessage({ needs, packages, or = [] }: OptionalPackages): string {
  const alternatives = or.length > 0 ? ` (or ${or.join(' or ')})` : '';
  return `${needs} ${listed(packages)}${alternatives}: ${npmInstall()} ${packages.join(' ')}`;
}

/** The package an ERR_MODULE_NOT_FOUND says is not installed; undefined for anything else. */
export function missingPackage(error: unknown): string | undefined {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND')
    return undefined;
  // Node names the package ('@scope/name'); some loaders name the whole specifier.
  const specifier = /Cannot find package '([^']+)'/.exec(error.message)?.[1];
  return specifier === undefined ? undefined : packageOf(specifier);
}

const packageOf = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

const listed = (names: readonly string[]): string =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
