// The JSON body parser: like Fastify's own (prototype-poisoning keys are refused), except that
// an empty body is "no body" rather than an error, so `POST` without content behaves the same
// whatever Content-Type the client sent.
import type { FastifyInstance } from 'fastify';
import { JsonTooDeepError, parseClientJson } from '../lib/json-text.js';
import { invalid } from '../lib/errors.js';

export function installJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, parseClientJson(text));
    } catch (err) {
      const message = err instanceof JsonTooDeepError ? `The body is ${err.message}` : 'The body is not valid JSON';
      done(invalid('invalid_json', message), undefined);
    }
  });
}
