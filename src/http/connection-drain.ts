// Closing the HTTP server's connections at shutdown, within a grace period.
//
// Node's server.close() stops accepting connections and closes those idle at that moment, and
// Fastify then answers new requests 503 with `Connection: close`. That alone left two kinds of
// connection open, and the process with them (SIGTERM took 70–80 s with keep-alive clients):
// - one on which a request was in progress when shutdown began: its answer went out with
//   `Connection: keep-alive`, after which the connection sat idle until the client or the
//   keep-alive timeout (Fastify's 72 s) closed it;
// - one opened with no request on it yet (browsers and proxies open spare ones): Node counts it
//   as waiting for a request head, never as idle, and close() also stops the timer that would
//   otherwise end it, so it stayed open until the client closed it.
// So every connection is tracked with the number of requests in progress on it: at shutdown
// those with none are closed at once, the others as soon as their last answer is written, and
// what remains when the grace period is over is closed regardless.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionDrain {
  /** Closes idle connections now, and every other one once its requests are answered. */
  beginDraining(): void;
  /** Closes every connection still open; returns how many had a request in progress. */
  closeAll(): number;
}

export function trackConnections(server: Server): ConnectionDrain {
  /** Each open connection and the requests in progress on it (pipelining allows several). */
  const requestsOn = new Map<Socket, number>();
  /** Requests in progress: those whose headers are not yet written are answered with
   *  `Connection: close` once draining begins. */
  const unanswered = new Set<ServerResponse>();
  let draining = false;

  server.on('connection', (socket: Socket) => {
    // Accepted in the moment between draining and the listener closing: refused like those after.
    if (draining) return void socket.destroy();
    requestsOn.set(socket, 0);
    socket.once('close', () => requestsOn.delete(socket));
  });

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    requestsOn.set(socket, (requestsOn.get(socket) ?? 0) + 1);
    unanswered.add(response);
    // 'close' also when the client went away before the answer was complete.
    response.once('close', () => {
      unanswered.delete(response);
      const left = (requestsOn.get(socket) ?? 1) - 1;
      if (!requestsOn.has(socket)) return;
      requestsOn.set(socket, left);
      // Ends the connection once the answer's bytes are flushed (destroy would drop them).
      if (draining && left === 0) socket.destroySoon();
    });
    if (draining) response.setHeader('connection', 'close');
  });

  return {
    beginDraining() {
      draining = true;
      // The client learns from the answer itself that the connection will not be reused.
      for (const response of unanswered) if (!response.headersSent) response.setHeader('connection', 'close');
      for (const [socket, requests] of requestsOn) if (requests === 0) socket.destroy();
    },
    closeAll() {
      let busy = 0;
      for (const [socket, requests] of requestsOn) {
        if (requests > 0) busy += 1;
        socket.destroy();
      }
      return busy;
    },
  };
}
