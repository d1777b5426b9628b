// TypeBox schemas of the /api/srs routes, for validation and the OpenAPI document.
import { Type } from 'typebox';
import { EnvelopeOf, ErrorEnvelope, standardErrors } from '../http/envelope.js';
import { optionalBody } from '../http/validation.js';
import { SRS_ID_PATTERN } from '../srs/definition/store.js';
import { RENDER_MAX_PAGES } from '../config/config.js';
import { MAX_PAGES_PARAM, TRUNCATED_HEADER } from '../srs/max-pages-param.js';

export const SrsId = Type.String({
  pattern: SRS_ID_PATTERN,
  description: 'the SRS id: the file srs/<id>-<slug>.xml or srs/<id>.xml of the app',
});

export const SrsPath = Type.Object({ id: SrsId });

export const TemplatePath = Type.Object({
  id: SrsId,
  templatename: Type.String({
    description: 'the template file name in the app\'s templates/ without ".frx": matched exactly, case-sensitively',
  }),
});

const OTHER_QUERY_NAMES = "any other name is a value for the SRS's param of that name (the query wins over the body)";

export const SrsQuery = Type.Object(
  {
    app_name: Type.Optional(
      Type.String({ maxLength: 64, description: "the application (default: the caller's context, user_app_name)" }),
    ),
  },
  { additionalProperties: true, description: OTHER_QUERY_NAMES },
);

/** The render routes' query: the SRS's, plus `_max_pages` (max-pages-param.ts). */
export const RenderQuery = Type.Object(
  {
    ...SrsQuery.properties,
    [MAX_PAGES_PARAM]: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: RENDER_MAX_PAGES.max,
        description:
          `html and pdf: answer the first this-many pages (at most Settings:RenderMaxPages) of a report that ` +
          `has more, with the response header ${TRUNCATED_HEADER}: pages=<n>, instead of 422 render_too_large; ` +
          `may also come in the body`,
      }),
    ),
  },
  { additionalProperties: true, description: OTHER_QUERY_NAMES },
);

const ParamScalar = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

// Fastify validates a missing body as null, so null is accepted (no params); optionalBody also
// lets a missing body through and tells the OpenAPI document that the body is optional.
export const SrsBody = optionalBody(
  Type.Union([Type.Object({}, { additionalProperties: ParamScalar }), Type.Null()], {
    description: 'param values by name (JSON or form); the query string wins over the body',
  }),
);

export const SrsDataAnswer = EnvelopeOf(
  Type.Object(
    {},
    {
      additionalProperties: true,
      description:
        'command name → array of rows, or one object (or null) with dtsingle: exactly what templates receive',
    },
  ),
);

const ParamView = Type.Object({
  name: Type.String(),
  type: Type.String({ description: 'string, int, decimal, bool or date' }),
  default: Type.Union([Type.String(), Type.Null()], {
    description: 'null: the param binds NULL when no value is given',
  }),
  label: Type.Union([Type.String(), Type.Null()], {
    description: "what a form calls the param (the definition's label attribute); null: none given",
  }),
});

/** GET /api/srs: what the caller may run, for a client that builds report forms. */
export const SrsCatalogAnswer = EnvelopeOf(
  Type.Object({
    apps: Type.Array(
      Type.Object({
        name: Type.String({ description: 'the app (pass it as ?app_name=)' }),
        definitions: Type.Array(
          Type.Object({
            id: Type.String({ description: 'the {id} of the /api/srs/{id}/… paths' }),
            label: Type.String(),
            file: Type.String({ description: 'the definition file inside srs/' }),
            params: Type.Array(ParamView),
            templates: Type.Array(Type.String(), {
              description:
                'the templates (names without .frx) to render this definition with, best fit first: those the ' +
                'definition names (<srs templates="…">), else those whose data dictionary names its commands; ' +
                'empty: no template of the app fits it',
            }),
          }),
          { description: 'the SRS definitions the caller may render (their srssetup allows the caller)' },
        ),
        templates: Type.Array(Type.String(), {
          description: "template names of the app's templates/ folder (without .frx)",
        }),
        errors: Type.Optional(
          Type.Array(Type.String(), { description: 'only for srs_administrator: definitions that cannot be loaded' }),
        ),
      }),
      { description: 'the apps the caller may use (role app_<name> or app_administrator)' },
    ),
  }),
);

export const SrsDefinitionAnswer = EnvelopeOf(
  Type.Object({
    id: Type.String(),
    app: Type.String(),
    file: Type.String({ description: 'the definition file inside srs/' }),
    label: Type.String(),
    culture: Type.Union([Type.String(), Type.Null()]),
    params: Type.Array(ParamView),
    commands: Type.Array(
      Type.Object({
        name: Type.String(),
        setup: Type.Boolean({ description: 'srssetup: runs first, its rows are not part of the data' }),
        single: Type.Boolean({ description: 'dtsingle: the first row as one object' }),
        required: Type.Boolean({ description: 'required: without a row the request is a 404 record_not_found' }),
        acl: Type.Array(Type.String(), {
          description: 'roles of which the caller needs one; empty: anyone with the app',
        }),
        allowed: Type.Boolean({
          description: 'whether the caller meets the acl (commands the caller may not run yield [] or null)',
        }),
        sql: Type.Optional(Type.String({ description: 'only for srs_administrator' })),
      }),
    ),
    templates: Type.Array(Type.String(), {
      description: "template names of the app's templates/ folder (without .frx)",
    }),
    warnings: Type.Optional(
      Type.Array(Type.String(), { description: 'only for srs_administrator: parts of the file that are not used' }),
    ),
  }),
);

const binary = (mediaType: string, description: string) => ({
  description,
  content: { [mediaType]: { schema: { type: 'string', format: 'binary' } } },
});

/** A rendered report's answer: it may have been cut at the request's `_max_pages`. */
const rendered = (mediaType: string, description: string) => ({
  ...binary(mediaType, description),
  headers: {
    [TRUNCATED_HEADER]: {
      type: 'string',
      description:
        `only when the report was cut at the request's ${MAX_PAGES_PARAM}: "pages=<n>", the pages answered ` +
        `(the report has more)`,
    },
  },
});

export const reportErrors = {
  ...standardErrors,
  413: ErrorEnvelope,
  415: ErrorEnvelope,
  422: ErrorEnvelope,
  503: ErrorEnvelope,
};

export const RENDER_ANSWERS = {
  html: rendered('text/html', 'The report as a self-contained HTML document'),
  pdf: rendered('application/pdf', 'The report as PDF (vector text, embedded fonts)'),
  frx: binary('application/xml', 'The template with the data embedded in its JSON connection'),
} as const;

export const STARTER_ANSWER = binary(
  'application/xml',
  'A starter template wired to the data of the SRS, a DataBand per command',
);
