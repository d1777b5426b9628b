// The admin console at /admin/: the page and its two hashed bundles, built into
// dist/console by `npm run build` (scripts/build-console.mjs). Public like /docs: the page holds
// no data, and every API call it makes needs the session cookie it gets by logging in.
// Files are read on first use and kept (they are small), so the console adds nothing to start.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound, unavailable } from '../lib/errors.js';
import { ErrorEnvelope } from '../http/envelope.js';

/** dist/console of this checkout: the same from src/api (tests) and dist/api (the server). */
export const CONSOLE_DIR = fileURLToPath(new URL('../../dist/console/', import.meta.url));

/** Everything the page may load: its own bundles, the API (fetch) and its own rendered reports. */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // Inline styles for the report previews only: an HTML report is shown in a sandboxed srcdoc
  // frame (no script may run in it), which inherits this policy, and its layout is inline CSS.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  // Report previews: the HTML export of the API, in a sandboxed frame.
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const ASSET_NAME = /^[A-Za-z0-9_-]+\.[A-Za-z0-9]{6,}\.(js|css)$/;
const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  html: 'text/html; charset=utf-8',
};

interface ConsoleFile {
  type: string;
  identity: Buffer;
  gzip: Buffer;
  brotli: Buffer;
}

const cache = new Map<string, ConsoleFile | null>();

function load(relative: string): ConsoleFile | null {
  let file = cache.get(relative);
  if (file !== undefined) return file;
  try {
    const path = join(CONSOLE_DIR, relative);
    const ext = relative.slice(relative.lastIndexOf('.') + 1);
    file = {
      type: TYPES[ext] ?? 'application/octet-stream',
      identity: readFileSync(path),
      gzip: readFileSync(`${path}.gz`),
      brotli: readFileSync(`${path}.br`),
    };
  } catch {
    file = null;
  }
  cache.set(relative, file);
  return file;
}

/** The smallest form the client accepts (q-values are ignored: browsers send both or neither). */
function send(request: FastifyRequest, reply: FastifyReply, file: ConsoleFile): FastifyReply {
  const accepts = String(request.headers['accept-encoding'] ?? '');
  reply.type(file.type).header('vary', 'accept-encoding').header('x-content-type-options', 'nosniff');
  if (/\bbr\b/.test(accepts)) return reply.header('content-encoding', 'br').send(file.brotli);
  if (/\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(file.gzip);
  return reply.send(file.identity);
}

const Html = { description: 'The console page', content: { 'text/html': { schema: { type: 'string' } } } };

export const consoleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const config = { auth: 'none' as const };
  const tags = ['console'];

  // The console's routes live in the URL fragment, so the page is always /admin/ and its
  // relative links resolve the same way behind any path prefix.
  app.get('/admin', {
    config,
    schema: { tags, summary: 'Redirects to /admin/', response: { 301: { description: 'To admin/' } } },
    handler: async (_request, reply) => reply.redirect('admin/', 301),
  });

  app.get('/admin/', {
    config,
    schema: { tags, summary: 'The admin console (no credentials needed for the page itself)', response: { 200: Html } },
    handler: async (request, reply) => {
      const page = load('index.html');
      if (!page) throw unavailable('console_not_built', 'The admin console is not built: run `npm run build`', 60);
      reply.header('content-security-policy', CONSOLE_CSP).header('cache-control', 'no-cache');
      reply.header('referrer-policy', 'same-origin');
      return send(request, reply, page);
    },
  });

  app.get('/admin/assets/:file', {
    config,
    schema: {
      tags,
      summary: "The console's bundles, named by their content hash (cached for a year)",
      params: Type.Object({ file: Type.String({ maxLength: 128 }) }),
      response: {
        200: { description: 'A bundle', content: { 'text/javascript': { schema: { type: 'string' } } } },
        404: ErrorEnvelope,
      },
    },
    handler: async (request, reply) => {
      const name = request.params.file;
      const file = ASSET_NAME.test(name) ? load(`assets/${name}`) : null;
      if (!file) throw notFound('asset_not_found', `No console asset ${name}`);
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      return send(request, reply, file);
    },
  });
};
