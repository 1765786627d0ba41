import { describe, expect, it } from "vitest";
import { Client } from "./client.ts";
import { testServer } from "./harness.ts";

interface OpenApi {
  paths: Record<
    string,
    Record<string, { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> } }>
  >;
}

describe("the API's description", () => {
  it("is generated from the request schemas and served at /api/docs", async () => {
    const t = await testServer();
    try {
      const c = new Client(() => t.server.app);
      const doc = (await c.get<OpenApi>("/api/openapi.json")).body;
      const routes = t.server.app.printRoutes({ commonPrefix: false });
      for (const path of [
        "/api/register",
        "/api/games/{id}/votes",
        "/api/games/{id}/gm/publish",
        "/api/games/{id}/stream",
      ])
        expect(Object.keys(doc.paths)).toContain(path);
      expect(routes).toContain("votes");
      const vote = doc.paths["/api/games/{id}/votes"]!.post!.requestBody!.content["application/json"]!.schema;
      expect(vote).toMatchObject({
        type: "object",
        additionalProperties: false,
        properties: { color: { enum: ["red", "blue"] }, target: { type: "integer" } },
      });
      const ui = await t.server.app.inject({ method: "GET", url: "/api/docs/" });
      expect(ui.statusCode).toBe(200);
      expect(ui.body).toContain("swagger");
      const root = await t.server.app.inject({ method: "GET", url: "/" });
      expect(root.statusCode).toBe(302);
      expect(root.headers.location).toBe("/api/docs");
    } finally {
      await t.close();
    }
  });

  it("answers with security headers and JSON errors for unknown routes", async () => {
    const t = await testServer();
    try {
      const r = await t.server.app.inject({ method: "GET", url: "/api/nowhere" });
      expect(r.statusCode).toBe(404);
      expect(JSON.parse(r.body)).toEqual({
        error: { code: "not-found", message: "no route GET /api/nowhere" },
      });
      expect(r.headers["x-content-type-options"]).toBe("nosniff");
      expect(r.headers["x-frame-options"]).toBe("SAMEORIGIN");
    } finally {
      await t.close();
    }
  });
});
