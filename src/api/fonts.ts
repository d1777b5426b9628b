// GET /fonts/<face>.<hash>.woff2: the report engine's faces as WOFF2, for the HTML reports of
// /api/srs, which link them (src/report/text/web-fonts.ts). Public: the fonts are open-licensed
// and a browser fetches them without the report's credentials. The name carries a hash of the
// file, so the WOFF2 never changes: cached for a year, immutable. A face is compressed once per
// process, one at a time with a bounded queue (src/report/text/web-font-store.ts), which takes
// seconds a face; until its WOFF2 is made, a request is answered at once with the face's own
// file (TrueType or WOFF, which browsers read whatever the CSS format hint says), not to be
// stored, so a report's text is drawn in its font without waiting and a later page load gets
// the WOFF2.
import { open } from 'node:fs/promises';
import { Type } from 'typebox';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorEnvelope } from '../http/envelope.js';
import { notFound } from '../lib/errors.js';
import { type FontFace, webFontByFileName, webFontHash, webFonts, type WebFontStore } from '../report/index.js';

/** Where the route answers; an HTML report links its fonts under this path. */
export const FONT_ROUTE_PREFIX = '/fonts/';

const FontPath = Type.Object({
  file: Type.String({
    maxLength: 80,
    description: 'the face and its content hash, as an HTML report names it: "arimo-bold.0123456789abcdef.woff2"',
  }),
});

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
          description: "The font file: WOFF2, or the face's own file while its WOFF2 is being made",
          content: {
            'font/woff2': { schema: { type: 'string', format: 'binary' } },
            'font/ttf': { schema: { type: 'string', format: 'binary' } },
            'font/woff': { schema: { type: 'string', format: 'binary' } },
          },
        },
        304: { description: 'Not modified (If-None-Match)', type: 'null' },
        400: ErrorEnvelope,
        404: ErrorEnvelope,
      },
    },
    handler: async (request, reply) => {
      const face = webFontByFileName(request.params.file);
      if (!face) throw notFound('font_not_found', `No font ${request.params.file}`);
      // The answers are bytes, which the route's typed reply (JSON schemas) does not describe.
      const raw = reply as FastifyReply;
      // An HTML report is sandboxed (an opaque origin), and fonts are fetched with CORS: from
      // such a document every font request is cross-origin.
      raw.header('access-control-allow-origin', '*').header('x-content-type-options', 'nosniff');
      const etag = `"${webFontHash(face)}"`;
      const match = request.headers['if-none-match'];
      const notModified = match?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag) === true;
      const woff2 = notModified ? undefined : fonts.keptWoff2(face);
      if (notModified || woff2 !== undefined) {
        raw.header('cache-control', 'public, max-age=31536000, immutable').header('etag', etag);
        return woff2 === undefined ? raw.code(304).send() : raw.type('font/woff2').send(woff2);
      }
      fonts.prepare(face);
      return sendFaceFile(raw, face);
    },
  });
};

/** The face's own file, streamed (a script face is 10 MB), marked not to be stored: the same URL
 *  answers the WOFF2 once it is made. */
async function sendFaceFile(reply: FastifyReply, face: FontFace): Promise<FastifyReply> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(face.path);
  } catch {
    // A font directory's file removed while the server runs.
    throw notFound('font_not_found', `No font ${face.name}`);
  }
  return reply
    .header('cache-control', 'no-store')
    .type(face.format === 'woff' ? 'font/woff' : 'font/ttf')
    .send(file.createReadStream());
}
