import type { FastifyReply } from 'fastify';

/** The body as the route's own response serializer writes it (for a 200). */
export function serialized(reply: FastifyReply, payload: unknown): string {
  const body = reply.serialize(payload);
  if (typeof body !== 'string') throw new Error('A route serializer returned something other than text.');
  return body;
}

/**
 * Sends a body already serialized by `serialized` (as text, or as its UTF-8
 * bytes): a kept answer and a fresh one are the same bytes.
 */
export function sendSerialized(reply: FastifyReply, body: string | Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body);
}
