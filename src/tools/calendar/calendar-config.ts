import { ConfigError } from '../../errors/index.js';
import type { MailEnv } from '../mail/mail-config.js';

export type CalendarEnv = MailEnv;

export interface CalDavSettings {
  url: string;
  username: string;
  password: string;
  /** Display name of the calendar to write to; the first event calendar when unset. */
  calendarName?: string;
}

export type CalendarTarget = { kind: 'file' } | { kind: 'caldav'; settings: CalDavSettings };

const present = (env: CalendarEnv, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
};

/** A CalDAV server when `CADRE_CALDAV_URL` is set, else the workspace calendar file. */
export function resolveCalendarTarget(env: CalendarEnv): CalendarTarget {
  const url = present(env, 'CADRE_CALDAV_URL');
  if (url === undefined) return { kind: 'file' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('CADRE_CALDAV_URL is not a valid URL.');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new ConfigError('CADRE_CALDAV_URL must start with https:// (or http://).');
  }
  const username = present(env, 'CADRE_CALDAV_USERNAME');
  const password = present(env, 'CADRE_CALDAV_PASSWORD');
  const missing = [
    ...(username === undefined ? ['CADRE_CALDAV_USERNAME'] : []),
    ...(password === undefined ? ['CADRE_CALDAV_PASSWORD'] : []),
  ];
  if (username === undefined || password === undefined) {
    throw new ConfigError(`CADRE_CALDAV_URL is set; also set ${missing.join(' and ')}.`);
  }
  const calendarName = present(env, 'CADRE_CALDAV_CALENDAR');
  return {
    kind: 'caldav',
    settings: { url, username, password, ...(calendarName ? { calendarName } : {}) },
  };
}
