// GET /: a small page for whoever opens the server's address in a browser (rather than
// a 401), linking the API reference, the admin console and the liveness probe. Public,
// like /docs (docs/api.md, Authentication). No script at all, and its one style block
// is allowed by its hash alone, so the page works under the strictest Content-Security-Policy.
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { VERSION } from '../lib/version.js';

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#222}' +
  'h1{font-size:1.6rem;margin-bottom:.2rem}p.v{color:#666;margin-top:0}li{margin:.4rem 0}' +
  'code{background:#f2f2f2;padding:0 .2rem}';

// Relative links: they resolve to /docs etc. here, and still work behind a proxy that serves the
// instance under a path of its own.
const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Platform Core</title>
<link rel="icon" href="favicon.svg" type="image/svg+xml">
<style>${STYLE}</style>
</head>
<body>
<h1>Platform Core</h1>
<p class="v">version ${VERSION}</p>
<ul>
<li><a href="docs">API reference</a> (Swagger UI; the document itself is <a href="openapi.json">openapi.json</a>)</li>
<li><a href="admin/">Admin console</a> (sign in with your username and password)</li>
<li><a href="healthz">Health</a> (<code>/healthz</code>; <code>/readyz</code> also checks the database)</li>
</ul>
<p>The API needs credentials: see the API reference.</p>
</body>
</html>
`;

const CSP =
  `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; ` +
  "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const homeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/', {
    config: { auth: 'none' },
    schema: {
      tags: ['operations'],
      summary: 'A page linking the API reference, the admin console and /healthz (no credentials needed)',
      response: {
        200: { description: 'The page', content: { 'text/html': { schema: { type: 'string' } } } },
      },
    },
    handler: async (_request, reply) =>
      (reply as FastifyReply)
        .type('text/html; charset=utf-8')
        .header('content-security-policy', CSP)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-cache')
        .send(PAGE),
  });
};
