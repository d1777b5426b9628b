// The response envelope (docs/api.md, Envelope and errors), and its TypeBox schema for OpenAPI.
import { Type, type TSchema } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isoMicros } from '../lib/time.js';

export interface Envelope<T> {
  success: boolean;
  message: string;
  requestID: string;
  executed_at: string;
  data: T;
}

export function envelope<T>(request: FastifyRequest, data: T, message = '', success = true): Envelope<T> {
  return { success, message, requestID: String(request.id), executed_at: isoMicros(), data };
}

export function sendEnvelope<T>(reply: FastifyReply, data: T, message = '', status = 200): FastifyReply {
  return reply.code(status).send(envelope(reply.request, data, message));
}

export const EnvelopeOf = <T extends TSchema>(data: T, description?: string) =>
  Type.Object(
    {
      success: Type.Boolean(),
      message: Type.String(),
      requestID: Type.String(),
      executed_at: Type.String({ description: 'ISO 8601 UTC with six fraction digits' }),
      data,
    },
    description ? { description } : {},
  );

/** The data of every failure; a route whose failures say more adds to its properties. */
export const ErrorData = Type.Object({
  code: Type.String({ description: 'stable snake_case machine code' }),
  details: Type.Optional(
    Type.Array(
      Type.Object({
        field: Type.Optional(Type.String()),
        rule: Type.Optional(Type.String()),
        message: Type.String(),
      }),
    ),
  ),
});

export const ErrorEnvelope = EnvelopeOf(ErrorData, 'Failure');

/** Error answers every authenticated route may give, for the OpenAPI document. */
export const standardErrors = {
  400: ErrorEnvelope,
  401: ErrorEnvelope,
  403: ErrorEnvelope,
  404: ErrorEnvelope,
  429: ErrorEnvelope,
};

/** The five credential forms, for the OpenAPI `security` of authenticated routes. */
export const authSecurity: Array<Record<string, string[]>> = [
  { bearer: [] },
  { token: [] },
  { basic: [] },
  { cookie: [] },
  { query: [] },
];
