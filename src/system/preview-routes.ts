// POST /api/core/system/preview: markdown (or HTML) to sanitised HTML.
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { authSecurity, EnvelopeOf, sendEnvelope, standardErrors } from '../http/envelope.js';
import { AppError } from '../lib/errors.js';
import { preview, type PreviewType } from './markdown.js';

const MAX_INPUT_BYTES = 1024 * 1024;

export function previewRoutes(app: FastifyInstance): void {
  app.post<{ Body: { painput: string; patype?: PreviewType } }>('/api/core/system/preview', {
    config: { acceptsNul: true },
    schema: {
      tags: ['system'],
      security: authSecurity,
      summary: 'Render markdown (CommonMark + tables, strikethrough) or HTML to sanitised HTML',
      body: Type.Object({
        painput: Type.String({ description: 'the markdown (or HTML) source, ≤ 1 MiB' }),
        patype: Type.Optional(Type.Union([Type.Literal('markdown'), Type.Literal('html')], { default: 'markdown' })),
      }),
      response: { 200: EnvelopeOf(Type.Object({ html: Type.String() })), ...standardErrors },
    },
    handler: async (request, reply) => {
      const { painput, patype } = request.body;
      if (Buffer.byteLength(painput) > MAX_INPUT_BYTES) throw new AppError(413, 'payload_too_large', 'painput is larger than 1 MiB');
      return sendEnvelope(reply, { html: preview(painput, patype ?? 'markdown') }, 'OK');
    },
  });
}
