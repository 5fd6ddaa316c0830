/** One spelling per recipient, so "Bob@Example.com " and "bob@example.com" are one grant. */
export const normaliseRecipient = (recipient: string): string => recipient.trim().toLowerCase();
