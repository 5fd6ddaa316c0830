import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/cadre-error.js';
import { missingMessage, missingPackage, optionalImport } from './optional-import.js';

// Through a variable, so the type checker does not look for these packages.
const load = (specifier: string): Promise<unknown> => import(specifier);
const MISSING = 'cadre-test-no-such-package';

const caught = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => expect.unreachable('the import should have failed'),
    (error: unknown) => error,
  );

describe('optionalImport', () => {
  it('turns a named package that is not installed into a setup error saying what to install', async () => {
    const error = await caught(
      optionalImport(() => load(MISSING), { needs: 'Widgets need', packages: [MISSING] }),
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).code).toBe('config_error');
    expect((error as ConfigError).message).toBe(`Widgets need ${MISSING}: npm install ${MISSING}`);
    expect(missingPackage((error as ConfigError).cause)).toBe(MISSING);
  });

  it('knows a scoped package from an import of one of its files', async () => {
    const error = await caught(
      optionalImport(() => load('@cadre-test/no-such-sdk/client/index.js'), {
        needs: 'Servers need',
        packages: ['@cadre-test/no-such-sdk'],
      }),
    );
    expect((error as Error).message).toBe(
      'Servers need @cadre-test/no-such-sdk: npm install @cadre-test/no-such-sdk',
    );
  });

  it('explains a missing stand-in too', async () => {
    const error = await caught(
      optionalImport(() => load(MISSING), {
        needs: 'The store needs',
        packages: ['kysely', 'libsql'],
        or: [MISSING],
      }),
    );
    expect((error as Error).message).toBe(
      `The store needs kysely and libsql (or ${MISSING}): npm install kysely libsql`,
    );
  });

  it('passes through a missing package it was not told about, unchanged', async () => {
    let original: unknown;
    const error = await caught(
      optionalImport(
        () =>
          load(MISSING).catch((cause: unknown) => {
            original = cause;
            throw cause;
          }),
        { needs: 'Widgets need', packages: ['something-else'] },
      ),
    );
    expect(error).toBe(original);
    expect(error).not.toBeInstanceOf(ConfigError);
  });

  it('passes through other failures unchanged', async () => {
    const broken = new TypeError('the package threw while loading');
    const error = await caught(
      optionalImport(() => Promise.reject(broken), { needs: 'Widgets need', packages: [MISSING] }),
    );
    expect(error).toBe(broken);
    const missingFile = await caught(
      optionalImport(() => load('./no-such-file.js'), {
        needs: 'Widgets need',
        packages: [MISSING],
      }),
    );
    expect(missingFile).not.toBeInstanceOf(ConfigError);
  });

  it('returns the module when it is installed', async () => {
    const yaml = await optionalImport(() => import('yaml'), {
      needs: 'Definitions need',
      packages: ['yaml'],
    });
    expect(yaml.parse('a: 1')).toEqual({ a: 1 });
  });
});

describe('missingMessage', () => {
  it('lists the packages in order and installs them all', () => {
    expect(
      missingMessage({
        needs: 'cadre serve needs',
        packages: ['fastify', 'pino', 'kysely', 'libsql'],
        or: ['pg'],
      }),
    ).toBe(
      'cadre serve needs fastify, pino, kysely and libsql (or pg): npm install fastify pino kysely libsql',
    );
  });
});
