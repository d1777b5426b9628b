// Two validators: path, query and header values arrive as strings and are coerced to the
// declared types; JSON bodies are checked as sent (a number is not a string), and unknown
// properties are reported, never silently dropped.
import { Ajv, type Options } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';

const common: Options = { allErrors: false, useDefaults: true, removeAdditional: false, strict: false };
const coercing = new Ajv({ ...common, coerceTypes: 'array' });
const exact = new Ajv({ ...common, coerceTypes: false });
for (const ajv of [coercing, exact]) {
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  ajv.addFormat('date-time', { validate: (s: string) => !Number.isNaN(Date.parse(s)) });
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? exact : coercing).compile(schema as object);
