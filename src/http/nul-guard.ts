// PostgreSQL cannot store U+0000 in text (it fails the whole statement) while SQLite stores it,
// so a NUL in a body would be a 500 on one database and odd data on the other. Bodies are
// refused up front, with the field named; routes that only echo or render text opt out.
import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import { invalid } from '../lib/errors.js';
import { findInJson } from '../lib/json-walk.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route never stores its body (ping echo, preview), so NUL characters are fine. */
    acceptsNul?: boolean;
  }
}

/** The path of the first string (value or key) holding a NUL, or null. */
export const findNul = (value: unknown): string | null =>
  findInJson(value, (v) => typeof v === 'string' && v.includes('\u0000'));

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Adds the check to each route that takes a body (a global hook would run on every GET too). */
export function installNulGuard(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (route.config?.acceptsNul || !methods.some((m) => BODY_METHODS.has(m))) return;
    const guard: preValidationHookHandler = (request, _reply, done) => {
      if (request.body === undefined || request.body === null) return done();
      const at = findNul(request.body);
      if (at === null) return done();
      const field = at || 'body';
      done(
        invalid('invalid_input', `${field} must not contain a NUL character`, [
          { field, rule: 'no_nul', message: `${field} contains U+0000` },
        ]),
      );
    };
    const existing = route.preValidation;
    route.preValidation =
      existing === undefined ? [guard] : [guard, ...(Array.isArray(existing) ? existing : [existing])];
  });
}
