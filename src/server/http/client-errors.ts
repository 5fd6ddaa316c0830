import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyBaseLogger } from 'fastify';
import type { ErrorBody } from './http-problem.js';

/**
 * Answers what Node refuses before any route sees it (a request that took
 * too long to arrive, oversized headers, unparsable HTTP) in the API's own
 * error shape, then drops the socket. Logged at debug: on a hostile network
 * these are many and say nothing about the server.
 */
export function clientErrorHandler(
  log: FastifyBaseLogger,
): (error: ConnectionError, socket: Socket) => void {
  return (error, socket) => {
    // A reset socket has nobody left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, body] = answer(error.code);
    log.debug({ code: error.code, status }, 'client error');
    if (socket.writable) {
      const text = JSON.stringify(body);
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nconnection: close\r\n` +
          `content-type: application/json; charset=utf-8\r\n` +
          `content-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
      );
    }
    socket.destroy();
  };
}

function answer(code: string): [number, ErrorBody] {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return [408, problem('request_timeout', 'The request took too long to arrive.')];
  if (code === 'HPE_HEADER_OVERFLOW')
    return [431, problem('validation_error', 'The request headers are too large.')];
  return [400, problem('validation_error', 'Bad request.')];
}

function problem(code: ErrorBody['error']['code'], message: string): ErrorBody {
  return { ok: false, error: { code, message } };
}
