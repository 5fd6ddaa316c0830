import { decodeHTMLStrict } from 'entities';

/**
 * Decodes character references in text outside the DOM (titles, search
 * snippets), every one HTML names. A no-break space becomes a plain one: the
 * text goes to a model, for which the difference is noise.
 */
export const decodeEntities = (text: string): string =>
  decodeHTMLStrict(text).replaceAll('\u00a0', ' ');
