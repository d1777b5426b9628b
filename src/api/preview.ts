// POST /api/core/system/preview: markdown (or HTML) to sanitised HTML, made on the preview pool's
// worker threads (preview-pool.ts) so that the event loop goes on answering meanwhile. The
// worker hands back the HTML already as JSON bytes; the answer is the envelope around them.
import { Type } from 'typebox';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authSecurity, envelope, EnvelopeOf, ErrorEnvelope, standardErrors } from '../http/envelope.js';
import { AppError, unavailable, unprocessable } from '../lib/errors.js';
import {
  PoolBusyError,
  JobMemoryError,
  JobTimeoutError,
  type PreviewJson,
  type PreviewPool,
} from '../system/preview-pool.js';

const MAX_INPUT_BYTES = 1024 * 1024;

export const previewRoutes: FastifyPluginAsyncTypebox<{ previews: PreviewPool }> = async (app, { previews }) => {
  app.post('/api/core/system/preview', {
    config: { acceptsNul: true },
    schema: {
      tags: ['system'],
      security: authSecurity,
      summary: 'Render markdown (CommonMark + tables, strikethrough) or HTML to sanitised HTML',
      body: Type.Object({
        painput: Type.String({ description: 'the markdown (or HTML) source, ≤ 1 MiB' }),
        patype: Type.Optional(Type.Union([Type.Literal('markdown'), Type.Literal('html')], { default: 'markdown' })),
      }),
      response: {
        200: EnvelopeOf(Type.Object({ html: Type.String() })),
        ...standardErrors,
        413: ErrorEnvelope,
        422: ErrorEnvelope,
        503: ErrorEnvelope,
      },
    },
    handler: async (request, reply) => {
      const { painput, patype } = request.body;
      if (Buffer.byteLength(painput) > MAX_INPUT_BYTES)
        throw new AppError('too_large', 'payload_too_large', 'painput is larger than 1 MiB');
      const signal = abortOnDisconnect(reply);
      let html: PreviewJson;
      try {
        html = await previews.previewJson(painput, patype ?? 'markdown', signal);
      } catch (err) {
        throw signal.aborted
          ? new AppError(
              'client_gone',
              'client_closed_request',
              'The client closed the connection before the preview was ready',
            )
          : previewFailure(err);
      }
      return sendHtmlEnvelope(reply, html);
    },
  });
};

/**
 * What sendEnvelope(reply, { html }, 'OK') sends (the same members in the same order as the
 * response schema's serialiser writes them), with the HTML already a JSON string in UTF-8 and
 * the envelope's head and tail written into the room the worker left around it: the event loop
 * neither escapes nor copies megabytes. A Buffer is sent as it is, past the serialiser.
 */
function sendHtmlEnvelope(reply: FastifyReply, html: PreviewJson): FastifyReply {
  const { success, message, requestID, executed_at } = envelope(reply.request, null, 'OK');
  const head = Buffer.from(
    `${JSON.stringify({ success, message, requestID, executed_at }).slice(0, -1)},"data":{"html":`,
  );
  const tail = Buffer.from('}}');
  const { bytes, start, end } = html;
  let body: Buffer;
  if (head.length <= start && end + tail.length <= bytes.length) {
    head.copy(bytes, start - head.length);
    tail.copy(bytes, end);
    body = bytes.subarray(start - head.length, end + tail.length);
  } else {
    body = Buffer.concat([head, bytes.subarray(start, end), tail]);
  }
  return reply.code(200).type('application/json; charset=utf-8').send(body);
}

/**
 * Pool failures → answers. Over the time or memory limit is this input's doing, and the same
 * input would fail the same way again: 422, not a 5xx that invites a retry. A full queue is a
 * 503 with Retry-After. Anything else (a crashed worker, a closed pool) is a server fault: 500.
 */
function previewFailure(err: unknown): unknown {
  if (err instanceof PoolBusyError) {
    return unavailable('preview_busy', 'The preview is busy; retry later', err.retryAfterSeconds);
  }
  if (err instanceof JobTimeoutError) {
    return unprocessable(
      'preview_timeout',
      `The preview took longer than ${err.timeoutMs / 1000} s (Settings:PreviewTimeoutSeconds) and was stopped`,
    );
  }
  if (err instanceof JobMemoryError) {
    return unprocessable(
      'preview_too_large',
      `The preview needs more than ${err.maxMemoryMb} MB of memory (Settings:PreviewMemoryMb) and was stopped`,
    );
  }
  return err;
}

/** Stops the preview when the client goes away before the answer is sent. */
function abortOnDisconnect(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('the client closed the connection'));
  });
  return controller.signal;
}
