// The OpenAPI document is generated from the route schemas; Swagger UI serves it at /docs.
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { VERSION } from '../lib/version.js';
import { OPTIONAL_BODY } from './validation.js';

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
          token: { type: 'apiKey', in: 'header', name: 'Authorization', description: '`Token <API token>`' },
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
    await scope.register(swaggerUi, { routePrefix: '/docs' });
  });
  app.get('/openapi.json', { config: { auth: 'none' }, schema: { hide: true } }, async () => app.swagger());
}
