// The end of every response (its status, how long it took, the route that answered), reported
// to one function per server, for the metrics and the access and slow-request lines.
//
// Why not Fastify's onResponse hook: a hook, or Fastify's own logger, makes Fastify add a
// 'finish' and an 'error' listener to every response and remove them again, and time it; on
// the cheapest routes that was about 0.5 µs of 17 per request, the largest cost left that was
// ours to remove (bench/http-auth.js). Instead the server makes its responses of a class that
// notices its own 'finish': no listener, no closure, nothing allocated per request.
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { FastifyReply } from 'fastify';

/** How a response ended. `reply`: the Fastify reply, or null when no route, not-found or
 *  framework error handler took the request (Node answered it, or Fastify before routing). */
export type ResponseEndListener = (reply: FastifyReply | null, res: ServerResponse, ms: number) => void;

export interface ResponseTracker {
  /** The class the HTTP server makes its responses of (Node's `ServerResponse` option). */
  ServerResponse: typeof ServerResponse;
  /** Ties a reply to its response, so that the response's end is reported with it. Called
   *  first thing by whatever takes a request: each route's gate, the not-found handler, the
   *  framework error handler. A response of another class (`app.inject`'s) gets a listener. */
  track(reply: FastifyReply): void;
}

const emit = ServerResponse.prototype.emit;

export function responseTracker(onEnd: ResponseEndListener): ResponseTracker {
  class TrackedResponse extends ServerResponse {
    /** When Node parsed the request's headers (performance.now()). */
    readonly startedAt = performance.now();
    reply: FastifyReply | null = null;
    private reported = false;

    constructor(req: IncomingMessage) {
      super(req);
    }

    // 'finish': the last byte went to the kernel. 'error': it never will (Fastify's onResponse
    // ran on either, once; a response whose client went away first gets neither). `arguments`
    // passed on as they came: a rest parameter would allocate an array on every emit.
    override emit(event: string | symbol): boolean {
      if ((event === 'finish' || event === 'error') && !this.reported) {
        this.reported = true;
        onEnd(this.reply, this, performance.now() - this.startedAt);
      }
      // biome-ignore lint/complexity/noArguments: see above
      return Reflect.apply(emit, this, arguments);
    }
  }

  return {
    ServerResponse: TrackedResponse as typeof ServerResponse,
    track(reply) {
      const res = reply.raw;
      if (res instanceof TrackedResponse) {
        res.reply = reply;
        return;
      }
      const started = performance.now();
      let reported = false;
      const end = () => {
        if (reported) return;
        reported = true;
        onEnd(reply, res, performance.now() - started);
      };
      res.once('finish', end);
      res.once('error', end);
    },
  };
}
