// Two validators: path, query and header values arrive as strings and are coerced to the
// declared types; JSON bodies are checked as sent (a number is not a string), and unknown
// properties are reported, never silently dropped.
import { Ajv, type Options } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';

/** The schema keyword optionalBody sets (an OpenAPI extension, so the document may keep it). */
export const OPTIONAL_BODY = 'x-optional-body';
const OPTIONAL_BODY_KEYWORD = OPTIONAL_BODY;

const common: Options = { allErrors: false, useDefaults: true, removeAdditional: false, strict: false };
const coercing = new Ajv({ ...common, coerceTypes: 'array' });
const exact = new Ajv({ ...common, coerceTypes: false });
exact.addKeyword(OPTIONAL_BODY_KEYWORD);
for (const ajv of [coercing, exact]) {
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  ajv.addFormat('date-time', { validate: (s: string) => !Number.isNaN(Date.parse(s)) });
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  if (httpPart !== 'body') return coercing.compile(schema as object);
  const validate = exact.compile(schema as object);
  if (!isOptionalBody(schema)) return validate;
  // Fastify hands a missing body over as null (or undefined). `errors` is set on each call, as
  // Fastify reads it from the validator after a failed check.
  const optional = (data: unknown): boolean => {
    const ok = data === undefined || data === null || validate(data);
    optional.errors = ok ? null : validate.errors;
    return ok;
  };
  optional.errors = null as typeof validate.errors;
  return optional;
};

/** Marks a body schema as optional: a request without a body passes, one with a body is checked. */
export const optionalBody = <T extends object>(schema: T): T => ({ ...schema, [OPTIONAL_BODY]: true });

export function isOptionalBody(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && (schema as Record<string, unknown>)[OPTIONAL_BODY] === true;
}
