import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';

/** A JSON-RPC error answer, as the A2A JSON-RPC binding sends it (with HTTP 200). */
export interface ErrorEnvelope {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

export type ParsedBody =
  | { kind: 'request'; request: Record<string, unknown> }
  | { kind: 'error'; envelope: ErrorEnvelope };

const refuse = (code: number, message: string, id: unknown = null): ParsedBody => ({
  kind: 'error',
  envelope: {
    jsonrpc: '2.0',
    id: typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null,
    error: { code, message },
  },
});

/**
 * The request body as a JSON-RPC request, or the spec's error for it:
 * `-32700` when it is not JSON at all, `-32600` when it is JSON but not a
 * request (not an object, a batch, no `jsonrpc: "2.0"`, no method name, an
 * id that is neither a string, an integer nor null). The SDK's transport
 * would call the latter invalid params (`-32602`); the spec says invalid
 * request. A body already parsed (an object) is checked the same way.
 */
export function parseJsonRpcBody(body: unknown): ParsedBody {
  let value: unknown = body;
  if (typeof body === 'string' || body === undefined) {
    try {
      value = JSON.parse(body ?? '');
    } catch {
      return refuse(A2A_ERROR_CODE.PARSE_ERROR, 'Parse error: the body is not JSON.');
    }
  }
  if (Array.isArray(value))
    return refuse(A2A_ERROR_CODE.INVALID_REQUEST, 'Invalid request: batches are not supported.');
  if (typeof value !== 'object' || value === null)
    return refuse(A2A_ERROR_CODE.INVALID_REQUEST, 'Invalid request: expected a JSON-RPC object.');
  const request = value as Record<string, unknown>;
  const id = request.id;
  if (
    'id' in request &&
    id !== null &&
    typeof id !== 'string' &&
    !(typeof id === 'number' && Number.isInteger(id))
  )
    return refuse(
      A2A_ERROR_CODE.INVALID_REQUEST,
      'Invalid request: id must be a string, an integer or null.',
    );
  if (request.jsonrpc !== '2.0')
    return refuse(A2A_ERROR_CODE.INVALID_REQUEST, 'Invalid request: jsonrpc must be "2.0".', id);
  if (typeof request.method !== 'string' || request.method === '')
    return refuse(A2A_ERROR_CODE.INVALID_REQUEST, 'Invalid request: method must be a name.', id);
  return { kind: 'request', request };
}

/**
 * A body sent as something other than JSON is refused as the SDK's own
 * server refuses it: `-32005` (content type not supported), HTTP 200. No
 * content type at all is read as JSON.
 */
export function contentTypeRefused(contentType: string | undefined): ErrorEnvelope | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (!type || type === 'application/json' || type.endsWith('+json')) return undefined;
  return {
    jsonrpc: '2.0',
    id: null,
    error: {
      code: A2A_ERROR_CODE.CONTENT_TYPE_NOT_SUPPORTED,
      message: `Content type ${type} is not supported; send application/json.`,
    },
  };
}
