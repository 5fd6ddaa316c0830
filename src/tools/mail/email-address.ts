/** RFC 5321 limits. */
const MAX_ADDRESS_LENGTH = 254;
const MAX_LOCAL_LENGTH = 64;

export type AddressCheck = { ok: true; address: string } | { ok: false; reason: string };

// Dot-atom local part (RFC 5322 atext); quoted local parts are refused: real
// people do not have them and they are where header tricks hide.
const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const TOP_LEVEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
// CR, LF, NUL, other C0/C1 controls and the Unicode line separators.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** `"bob@@x"` with quotes and escapes, so an odd value stays on one line of a reason. */
export const quoted = (value: string): string => JSON.stringify(value);

/**
 * A practical check of one bare address (`name@example.com`): no display
 * names, no lists, no IP literals, ASCII only (IDNs in their `xn--` form).
 * Returns the address trimmed and lower-cased.
 */
export function checkEmailAddress(raw: string): AddressCheck {
  const shown = quoted(raw.length > 80 ? `${raw.slice(0, 80)}…` : raw);
  if (CONTROL.test(raw)) {
    return { ok: false, reason: `the address ${shown} contains a line break or control character` };
  }
  const address = raw.trim().toLowerCase();
  if (/[,;<>"()\s]/.test(address)) {
    return {
      ok: false,
      reason: `${shown} is not a single bare address; give one plain address (name@example.com) per entry`,
    };
  }
  if (address.length === 0 || address.length > MAX_ADDRESS_LENGTH) {
    return { ok: false, reason: `${shown} is not a valid email address` };
  }
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  const labels = domain.split('.');
  const valid =
    at > 0 &&
    local.length <= MAX_LOCAL_LENGTH &&
    LOCAL_PART.test(local) &&
    labels.length >= 2 &&
    labels.every((label) => LABEL.test(label)) &&
    TOP_LEVEL.test(labels[labels.length - 1] ?? '');
  return valid
    ? { ok: true, address }
    : { ok: false, reason: `${shown} is not a valid email address` };
}
