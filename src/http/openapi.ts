// The OpenAPI document is generated from the route schemas; Swagger UI serves it at /docs.
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { VERSION } from '../lib/version.js';
import { OPTIONAL_BODY } from './validation.js';

/** Swagger UI's top bar: the project's name, white on the bar's dark background. */
const TOP_BAR_LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="220" height="40" viewBox="0 0 220 40">' +
  '<title>Platform Core</title>' +
  '<text x="0" y="28" fill="#fff" font-family="system-ui,sans-serif" font-size="24" font-weight="700">' +
  'Platform Core</text></svg>';

/**
 * The policy of every answer under /docs. Swagger UI is its own static scripts and styles, with
 * no inline script or style; it fetches the document and sends "Try it out" requests to this
 * origin, and shows the logo (and image responses) from data: and blob: URLs. No page may frame
 * it: a framed Swagger UI with a session cookie is a clickjacking target.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

type OpenApiDocument = {
  paths?: Record<
    string,
    Record<
      string,
      | { requestBody?: { required?: boolean; content?: Record<string, { schema?: Record<string, unknown> }> } }
      | undefined
    >
  >;
};

/**
 * @fastify/swagger marks every request body as required (Fastify itself refuses a missing body
 * when a body schema is declared). Bodies declared with optionalBody may be left out: their
 * schema carries the `x-optional-body` extension, and the document says `required: false`.
 */
export function markOptionalBodies<T extends OpenApiDocument>(doc: T): T {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      const body = op?.requestBody;
      if (!body?.content) continue;
      if (Object.values(body.content).some((media) => media.schema?.[OPTIONAL_BODY] === true)) body.required = false;
    }
  }
  return doc;
}

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Platform Core API',
        version: VERSION,
        description: 'Accounts, teams, roles, API tokens, authentication, system utilities and report rendering.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'A JWT from login, or an API token' },
          // An API key scheme would make Swagger UI send exactly what is pasted, so the user had
          // to type `Token pct_…`; as a bearer scheme the bare token is enough (the server takes
          // an API token in `Bearer` as in `Token`).
          token: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'API token',
            description:
              'An API token (`pct_…`): paste the bare value. Swagger UI sends `Authorization: Bearer <token>`; ' +
              'other clients may equally send `Authorization: Token <token>`.',
          },
          basic: { type: 'http', scheme: 'basic', description: 'username `api`, password = the API token' },
          cookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'ptoken',
            description: 'the JWT, set by login with createCookie',
          },
          query: {
            type: 'apiKey',
            in: 'query',
            name: 'ptoken',
            description: '`api:<API token>` or a JWT (insecure: logs and history keep URLs)',
          },
        },
      },
    },
    transformObject: (documents) =>
      ('openapiObject' in documents
        ? markOptionalBodies(documents.openapiObject as OpenApiDocument)
        : documents.swaggerObject) as never,
  });
  // The UI's own routes are public: mark every route registered inside this scope.
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), auth: 'none' };
    });
    await scope.register(swaggerUi, {
      routePrefix: '/docs',
      // The project's name in the page title and the top bar, not the framework's logo.
      theme: { title: 'Platform Core API' },
      logo: { type: 'image/svg+xml', content: TOP_BAR_LOGO, href: '/' },
      staticCSP: DOCS_CONTENT_SECURITY_POLICY,
    });
  });
  app.get('/openapi.json', { config: { auth: 'none' }, schema: { hide: true } }, async () => app.swagger());
}
