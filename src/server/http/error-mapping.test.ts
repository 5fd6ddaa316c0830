import { describe, expect, it } from 'vitest';
import {
  CancelledError,
  ConfigError,
  PolicyError,
  TimeoutError,
  ToolExecutionError,
  type ErrorCode,
} from '../../errors/cadre-error.js';
import { StoreUnavailableError } from '../../errors/store-error.js';
import { mapError, statusForCode } from './error-mapping.js';
import { HttpProblem } from './http-problem.js';

describe('error mapping', () => {
  it('gives every taxonomy code its documented status', () => {
    const expected: Record<ErrorCode, number> = {
      validation_error: 422,
      auth_error: 401,
      policy_error: 403,
      not_found: 404,
      conflict: 409,
      model_error: 502,
      tool_execution_error: 502,
      timeout: 504,
      cancelled: 503,
      config_error: 500,
      store_unavailable: 503,
    };
    for (const [code, status] of Object.entries(expected))
      expect(statusForCode(code as ErrorCode), code).toBe(status);
  });

  it('keeps safe messages, hides config details, bounds length and flags server faults', () => {
    expect(mapError(new PolicyError('Side effects are off.'))).toEqual({
      status: 403,
      code: 'policy_error',
      message: 'Side effects are off.',
      serverFault: false,
    });
    expect(mapError(new ConfigError('Set GEMINI_API_KEY in /srv/.env'))).toMatchObject({
      status: 500,
      message: 'The server is not configured for this request.',
      serverFault: true,
    });
    expect(mapError(new ToolExecutionError('x'.repeat(5000))).message.length).toBe(300);
    expect(mapError(new TimeoutError('Too slow.')).status).toBe(504);
    expect(mapError(new CancelledError()).serverFault).toBe(false);
    expect(mapError(new HttpProblem(429, 'rate_limited', 'Slow down.')).status).toBe(429);
  });

  it('answers the store down or full with 503 store_unavailable, even when wrapped', () => {
    const down = new StoreUnavailableError('unreachable', {
      cause: new Error('ECONNREFUSED 10.0.0.5'),
    });
    expect(
      mapError(new Error('The run stopped before it could be stored.', { cause: down })),
    ).toEqual({
      status: 503,
      code: 'store_unavailable',
      message: 'The database is unavailable; retry shortly.',
      serverFault: true,
    });
    expect(mapError(new StoreUnavailableError('full'))).toMatchObject({
      status: 503,
      code: 'store_unavailable',
      message: 'The database has no room to store this; retry later.',
    });
  });

  it('answers anything unknown with a generic 500, whatever was thrown', () => {
    for (const thrown of [new Error('secret'), 'secret', null, { statusCode: 400 }, 42])
      expect(mapError(thrown)).toEqual({
        status: 500,
        code: 'internal',
        message: 'Internal error; the details are in the server log.',
        serverFault: true,
      });
  });

  it('maps Fastify request errors to 4xx without their text', () => {
    const fst = (code: string, statusCode: number) =>
      Object.assign(new Error('raw text'), { code, statusCode });
    expect(mapError(fst('FST_ERR_CTP_BODY_TOO_LARGE', 413)).code).toBe('payload_too_large');
    expect(mapError(fst('FST_ERR_CTP_INVALID_JSON_BODY', 400)).status).toBe(400);
    expect(mapError(fst('FST_ERR_SOMETHING_NEW', 431))).toMatchObject({
      status: 431,
      message: 'Bad request.',
    });
    expect(mapError(fst('FST_ERR_INTERNAL', 500)).code).toBe('internal');
  });
});
