import type { FastifyInstance } from "fastify";
import type { Streams } from "../streams/stream.ts";

/**
 * Issue 28: what the app does when it is closed (SIGTERM: bin/start.ts, Server.close). Fastify then stops
 * listening and Node closes the idle connections; this adds, before the server waits for the rest:
 * - every live stream ends with a reconnect hint (Streams.endAll), so the clients resume from Last-Event-ID
 *   on another instance;
 * - every answer from then on says `Connection: close`, including those of the requests already in flight
 *   (fastify says it only for requests that arrive while closing): a proxy sends nothing more on that
 *   connection, and the server need not wait for it to time out.
 */
export function drainOnClose(app: FastifyInstance, streams: Streams): void {
  let draining = false;
  app.addHook("preClose", async () => {
    draining = true;
    streams.endAll();
  });
  app.addHook("onSend", (_req, reply, payload, done) => {
    if (draining) reply.header("connection", "close");
    done(null, payload);
  });
}
