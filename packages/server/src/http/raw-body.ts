import type { FastifyInstance, FastifyRequest } from "fastify";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * Issue 28, item 3: the route's JSON body is left as the bytes that arrived (a Buffer), for a worker
     * thread to read (tools-body.ts); the event loop never decodes or parses it.
     */
    rawBody?: true;
  }
}

/** The bytes of a request whose route keeps its body raw; null when the request had none. */
export function rawBodyOf(req: FastifyRequest): Buffer | null {
  const body: unknown = req.body;
  if (body === undefined || body === null) return null;
  if (!Buffer.isBuffer(body)) throw new Error(`${req.url}: the route's body is not raw (config.rawBody)`);
  return body;
}

/**
 * The app's one JSON body parser (issue 28, item 3). Fastify collects every body as a list of Buffers, joined
 * once at the end (no string is built as it arrives). A route with `config.rawBody` gets those bytes as they
 * are; every other route gets them parsed by fastify's own JSON parser (prototype poisoning refused), as
 * before. The limits stay fastify's: the app's body limit, or the route's own.
 */
export function jsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (req, body, done) => {
    if (req.routeOptions.config.rawBody === true) return done(null, body);
    parse(req, (body as Buffer).toString("utf8"), done);
  });
}
