/**
 * How a token is named once created: by the first hex digits of its SHA-256
 * (the token itself is never stored). No imports, so the CLI can check an
 * argument without loading the database code.
 */

/** Digits a listed token shows: 48 bits, so two tokens sharing them are rare. */
export const TOKEN_HASH_PREFIX_LENGTH = 12;

/** Shorter prefixes are refused: one typo would pick a token by chance. */
export const MIN_TOKEN_PREFIX = 6;

/**
 * Characters of a presented token that failed sign-ins are also counted
 * under: `cadre_` and 6 random ones, so guesses at one token from many
 * addresses are limited, while two real tokens rarely share a count.
 */
export const PRESENTED_TOKEN_PREFIX_LENGTH = 12;
