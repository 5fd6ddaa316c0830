import type { Message, Part } from '../model/types.js';
import { jsonSize, memberChars, stringChars, type JsonSize } from './json-size.js';

/*
 * jsonSize of a conversation message, read by its known shape: the walker
 * asks every object for a toJSON and every key for its escapes, and a
 * message is measured on every turn. The envelope's keys are constants here;
 * only texts, ids, names, arguments and answers are measured. Counts what a
 * provider client is sent: the fields the Message and Part types name.
 */

/** `{"role":` `,"parts":[` `]}` around the role's string and the parts. */
const MESSAGE_ENVELOPE = '{"role":,"parts":[]}'.length;
/** `{"kind":` `}` around a part's kind and its fields. */
const PART_ENVELOPE = '{"kind":}'.length;
const FUNCTION_CALL_KIND = '"function_call"'.length;
const FUNCTION_RESPONSE_KIND = '"function_response"'.length;
const TEXT_FIELD = ',"text":'.length;
const ID_FIELD = ',"id":'.length;
const NAME_FIELD = ',"name":'.length;
const ARGS_FIELD = ',"args":'.length;
const RESPONSE_FIELD = ',"response":'.length;

/** A message's JSON characters (signatures left out) and the images it carries. */
export function messageSize(message: Message): JsonSize {
  const parts = message.parts;
  if (typeof message.role !== 'string' || !Array.isArray(parts)) return jsonSize(message);
  const size: JsonSize = { chars: 0, images: 0 };
  let chars = MESSAGE_ENVELOPE + roleChars(message.role) + Math.max(0, parts.length - 1);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as Part;
    chars += partChars(part, size) ?? memberChars(part, String(i), size, 2) ?? 4;
  }
  size.chars = chars;
  return size;
}

/** A role's quoted characters: the two roles are constants. */
const roleChars = (role: string): number =>
  role === 'user' ? 6 : role === 'model' ? 7 : stringChars(role);

/** A part's characters by its kind, or undefined for a shape the types do not name. */
function partChars(part: Part, size: JsonSize): number | undefined {
  if (typeof part !== 'object' || part === null) return undefined;
  switch (part.kind) {
    case 'text':
    case 'thought':
      if (typeof part.text !== 'string') return undefined;
      return withImages(
        part,
        size,
        PART_ENVELOPE + part.kind.length + 2 + TEXT_FIELD + stringChars(part.text),
      );
    case 'function_call': {
      if (typeof part.id !== 'string' || typeof part.name !== 'string') return undefined;
      const args = memberChars(part.args, 'args', size, 3);
      return (
        PART_ENVELOPE +
        FUNCTION_CALL_KIND +
        ID_FIELD +
        stringChars(part.id) +
        NAME_FIELD +
        stringChars(part.name) +
        (args === undefined ? 0 : ARGS_FIELD + args)
      );
    }
    case 'function_response': {
      if (typeof part.id !== 'string' || typeof part.name !== 'string') return undefined;
      const response = memberChars(part.response, 'response', size, 3);
      return withImages(
        part,
        size,
        PART_ENVELOPE +
          FUNCTION_RESPONSE_KIND +
          ID_FIELD +
          stringChars(part.id) +
          NAME_FIELD +
          stringChars(part.name) +
          (response === undefined ? 0 : RESPONSE_FIELD + response),
      );
    }
    default:
      return undefined;
  }
}

/** Images a part carries are counted, not measured as text. */
function withImages(part: Part, size: JsonSize, chars: number): number {
  const images = (part as { images?: unknown }).images;
  if (Array.isArray(images)) size.images += images.length;
  return chars;
}
