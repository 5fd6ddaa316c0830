import { flatString } from './flat-string.js';

const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);
const DAY_MS = 86_400_000;

/**
 * `new Date(ms).toISOString()` for years 0–9999, in plain arithmetic: it is
 * stamped on every run and every event, and the Date round trip costs
 * several times more. Outside that range it defers to Date.
 */
export function isoTime(ms: number): string {
  if (!(ms >= MIN_MS && ms < MAX_MS) || !Number.isInteger(ms)) return new Date(ms).toISOString();
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  // Days since 1970 to a proleptic Gregorian date (H. Hinnant's civil_from_days).
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return flatString(
    `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}T${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${pad3(millis)}Z`,
  );
}

/** 0000-01-01T00:00:00.000Z and 10000-01-01T00:00:00.000Z: four-digit years. */
const MIN_MS = -62_167_219_200_000;
const MAX_MS = 253_402_300_800_000;
