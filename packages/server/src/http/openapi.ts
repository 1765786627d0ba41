import type { StaticDocumentSpec } from "@fastify/swagger";
import { z } from "zod";
import { IDEMPOTENCY_DOC, IDEMPOTENCY_HEADER } from "../log/idempotency.ts";

export interface RouteDoc {
  readonly method: string;
  readonly url: string;
  readonly summary: string;
  readonly tag: string;
  readonly body?: z.ZodType;
  readonly query?: z.ZodType;
  /** Issue 28: the write honours an Idempotency-Key header (idempotency.ts). */
  readonly idempotent?: true;
}

const ERROR = {
  description: "Refused: nothing changed",
  content: {
    "application/json": {
      schema: {
        type: "object",
        required: ["error"],
        properties: {
          error: {
            type: "object",
            required: ["code", "message"],
            properties: {
              code: { type: "string" },
              message: { type: "string", description: "Names the field or the rule" },
              clause: { type: "string", description: "The RULES.md clause, where one applies" },
            },
          },
        },
      },
    },
  },
};

/** The OpenAPI 3.1 document, generated from the same zod schemas that validate each request. */
export function openApiDocument(routes: readonly RouteDoc[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = r.url.replace(/:(\w+)/g, "{$1}");
    const params = [...r.url.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const query = r.query
      ? Object.entries(
          (z.toJSONSchema(r.query, { io: "input" }) as { properties?: Record<string, unknown> }).properties ??
            {},
        ).map(([name, schema]) => ({ name, in: "query", required: false, schema }))
      : [];
    const headers = r.idempotent
      ? [
          {
            name: IDEMPOTENCY_HEADER,
            in: "header",
            required: false,
            description: IDEMPOTENCY_DOC,
            schema: { type: "string" },
          },
        ]
      : [];
    paths[path] ??= {};
    paths[path]![r.method.toLowerCase()] = {
      summary: r.summary,
      tags: [r.tag],
      ...(params.length + query.length + headers.length
        ? { parameters: [...params, ...query, ...headers] }
        : {}),
      ...(r.body
        ? {
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: z.toJSONSchema(r.body, { io: "input", target: "openapi-3.0" }),
                },
              },
            },
          }
        : {}),
      responses: { "200": { description: "OK" }, "4XX": ERROR },
    };
  }
  return {
    openapi: "3.0.3",
    info: {
      title: "forum-mafia",
      version: "0.1.0",
      description:
        "The game server's JSON API. Sessions are httpOnly cookies set by /api/register and /api/login; every request body is JSON and is validated against the schema shown; unknown fields are refused.",
    },
    paths,
  };
}

/**
 * The document as @fastify/swagger's static mode takes it. The one cast of the API's edge: the document's
 * schemas are zod's JSON Schema output, which openapi-types' strict `SchemaObject` does not describe, and
 * the plugin only serves the document as it is.
 */
export function swaggerSpec(document: Record<string, unknown>): StaticDocumentSpec {
  return { document: document as unknown as StaticDocumentSpec["document"] };
}
