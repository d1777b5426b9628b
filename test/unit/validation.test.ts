// The schema validators of the HTTP layer, run directly (routes test them over HTTP).
import { describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { optionalBody, validatorCompiler } from '../../src/http/validation.js';

const compile = (schema: object) =>
  validatorCompiler({ schema, method: 'POST', url: '/x', httpPart: 'body' }) as ((d: unknown) => boolean) & {
    errors?: unknown[] | null;
  };

describe('optionalBody', () => {
  const schema = optionalBody(
    Type.Object(
      { lvl: Type.Optional(Type.Union([Type.String({ maxLength: 4 }), Type.Null()])) },
      { additionalProperties: false },
    ),
  );

  it('lets a request without a body through (Fastify passes null or undefined)', () => {
    const v = compile(schema);
    expect(v(undefined)).toBe(true);
    expect(v(null)).toBe(true);
    expect(v.errors ?? null).toBeNull();
  });

  it('checks a body that is sent, and reports the errors of that very call', () => {
    const v = compile(schema);
    expect(v({ lvl: 'ok' })).toBe(true);
    expect(v.errors ?? null).toBeNull();
    expect(v({ lvl: 'far too long' })).toBe(false);
    expect(JSON.stringify(v.errors)).toContain('maxLength');
    expect(v({ other: 1 })).toBe(false);
    expect(JSON.stringify(v.errors)).toContain('additionalProperties');
    expect(v({ lvl: null })).toBe(true);
    expect(v.errors ?? null).toBeNull();
  });
});
