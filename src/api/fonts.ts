// GET /fonts/<face>.<hash>.woff2: the report engine's faces as WOFF2, for the HTML reports of
// /api/srs, which link them (src/report/text/web-fonts.ts). Public: the fonts are open-licensed
// and a browser fetches them without the report's credentials. The name carries a hash of the
// file, so an answer never changes: cached for a year, immutable.
import { Type } from 'typebox';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorEnvelope } from '../http/envelope.js';
import { notFound } from '../lib/errors.js';
import { webFontByFileName, webFontHash, woff2Bytes } from '../report/index.js';

/** Where the route answers; an HTML report links its fonts under this path. */
export const FONT_ROUTE_PREFIX = '/fonts/';

const FontPath = Type.Object({
  file: Type.String({
    maxLength: 80,
    description: 'the face and its content hash, as an HTML report names it: "arimo-bold.0123456789abcdef.woff2"',
  }),
});

export const fontRoutes: FastifyPluginAsyncTypebox = async (app) => {
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
      },
    },
    handler: async (request, reply) => {
      const face = webFontByFileName(request.params.file);
      if (!face) throw notFound('font_not_found', `No font ${request.params.file}`);
      const etag = `"${webFontHash(face)}"`;
      reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('etag', etag)
        // An HTML report is sandboxed (an opaque origin), and fonts are fetched with CORS: from
        // such a document every font request is cross-origin.
        .header('access-control-allow-origin', '*')
        .header('x-content-type-options', 'nosniff');
      const match = request.headers['if-none-match'];
      // The answers are bytes, which the route's typed reply (JSON schemas) does not describe.
      const raw = reply as FastifyReply;
      if (match?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return raw.code(304).send();
      return raw.type('font/woff2').send(await woff2Bytes(face));
    },
  });
};
