import { describe, expect, it } from 'vitest';
import { resolveLogSettings } from './log-settings.js';

describe('resolveLogSettings', () => {
  it('defaults to info, pretty on a terminal and JSON elsewhere', () => {
    expect(resolveLogSettings({ env: {}, isTTY: true })).toEqual({
      level: 'info',
      format: 'pretty',
    });
    expect(resolveLogSettings({ env: {}, isTTY: false })).toEqual({
      level: 'info',
      format: 'json',
    });
  });

  it('takes the environment, and the flag over it', () => {
    const env = { CADRE_LOG_LEVEL: 'debug', CADRE_LOG_FORMAT: 'pretty' };
    expect(resolveLogSettings({ env, isTTY: false })).toEqual({ level: 'debug', format: 'pretty' });
    expect(resolveLogSettings({ level: 'WARN', format: 'json', env, isTTY: true })).toEqual({
      level: 'warn',
      format: 'json',
    });
  });

  it('names the allowed values for an unknown one', () => {
    expect(() => resolveLogSettings({ level: 'loud', env: {}, isTTY: false })).toThrow(
      "--log-level must be one of fatal, error, warn, info, debug, trace, silent; got 'loud'.",
    );
    expect(() => resolveLogSettings({ env: { CADRE_LOG_FORMAT: 'xml' }, isTTY: false })).toThrow(
      /CADRE_LOG_FORMAT must be one of json, pretty/,
    );
  });
});
