// GET /fonts/<face>.<hash>.woff2: the report engine's faces as WOFF2, for the HTML reports of
// /api/srs, which link them (src/report/text/web-fonts.ts). Public: the fonts are open-licensed
// and a browser fetches them without the report's credentials. The name carries a hash of the
// file, so an answer never changes: cached for a year, immutable. A face is compressed on its
// first request, one at a time with a bounded wait (src/report/text/web-font-store.ts): past
// that wait a request for another face is a 503 with Retry-After.
import { Type } from 'typebox';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorEnvelope } from '../http/envelope.js';
import { notFound, unavailable } from '../lib/errors.js';
import { webFontByFileName, webFontHash, webFonts, type WebFontStore } from '../report/index.js';

/** Where the route answers; an HTML report links its fonts under this path. */
export const FONT_ROUTE_PREFIX = '/fonts/';

const FontPath = Type.Object({
  file: Type.String({
    maxLength: 80,
    description: 'the face and its content hash, as an HTML report names it: "arimo-bold.0123456789abcdef.woff2"',
  }),
});

/** When a refused request may come back: a Latin face takes about a second to compress. */
const FONTS_BUSY_RETRY_SECONDS = 5;

export interface FontRoutesOptions {
  /** Where the WOFF2 comes from (default: the process's store). */
  fonts?: WebFontStore;
}

export const fontRoutes: FastifyPluginAsyncTypebox<FontRoutesOptions> = async (app, opts) => {
  const fonts = opts.fonts ?? webFonts;
  app.get(`${FONT_ROUTE_PREFIX}:file`, {
    config: { auth: 'none' },
    schema: {
      tags: ['reports'],
      summary: 'A font of the HTML reports as WOFF2 (no credentials needed)',
      params: FontPath,
      response: {
        200: {
          description: 'The font file',
          content: { 'font/woff2': { schema: { type: 'string', format: 'binary' } } },
        },
        304: { description: 'Not modified (If-None-Match)', type: 'null' },
        400: ErrorEnvelope,
        404: ErrorEnvelope,
        503: ErrorEnvelope,
      },
    },
    handler: async (request, reply) => {
      const face = webFontByFileName(request.params.file);
      if (!face) throw notFound('font_not_found', `No font ${request.params.file}`);
      const etag = `"${webFontHash(face)}"`;
      const match = request.headers['if-none-match'];
      const notModified = match?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag) === true;
      const bytes = notModified ? undefined : fonts.woff2(face);
      // Refused before the caching headers are set: a year-long Cache-Control on a 503 would let
      // a cache keep the refusal.
      if (!notModified && !bytes)
        throw unavailable('fonts_busy', 'Fonts are being prepared; retry shortly', FONTS_BUSY_RETRY_SECONDS);
      const body = await bytes;
      reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('etag', etag)
        // An HTML report is sandboxed (an opaque origin), and fonts are fetched with CORS: from
        // such a document every font request is cross-origin.
        .header('access-control-allow-origin', '*')
        .header('x-content-type-options', 'nosniff');
      // The answers are bytes, which the route's typed reply (JSON schemas) does not describe.
      const raw = reply as FastifyReply;
      return body === undefined ? raw.code(304).send() : raw.type('font/woff2').send(body);
    },
  });
};
