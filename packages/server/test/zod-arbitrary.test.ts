import { createGameSchema, roleListSchema } from "@forum-mafia/protocol";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { routeDocs } from "../src/http/app.ts";
import type { RouteDoc } from "../src/http/openapi.ts";
import { testServer, type TestServer } from "./harness.ts";
import { arbitraryOf } from "./zod-arbitrary.ts";

/** The converter the fuzz suite generates its well-formed inputs with (zod-arbitrary.ts). */

const SEED = 20_261_130;

describe("every schema of the app's routes", () => {
  let t: TestServer;
  let docs: readonly RouteDoc[];
  beforeAll(async () => {
    t = await testServer();
    docs = routeDocs.get(t.server.app)!;
  });
  afterAll(() => t.close());

  it("gets values that zod accepts (the schemas' refinements hold for printable text)", () => {
    const schemas = docs.flatMap((d) =>
      [d.body, d.query].flatMap((s) => (s ? [{ name: `${d.method} ${d.url}`, schema: s }] : [])),
    );
    expect(schemas.length).toBeGreaterThan(15);
    for (const { name, schema } of schemas) {
      fc.assert(
        fc.property(arbitraryOf(schema), (value) => {
          const r = schema.safeParse(value);
          if (!r.success) throw new Error(`${name}: ${JSON.stringify(value)}: ${r.error.message}`);
        }),
        { seed: SEED, numRuns: 200 },
      );
    }
  });
});

describe("the converter", () => {
  const sample = <T>(arb: fc.Arbitrary<T>, n = 300): T[] => fc.sample(arb, { seed: SEED, numRuns: n });

  it("keeps to lengths, bounds, patterns and integers", () => {
    const s = z.strictObject({
      name: z.string().trim().min(2).max(5),
      n: z.number().int().min(-3).max(3),
      x: z.number().gt(0).lt(1),
      at: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
      list: z.array(z.boolean()).min(1).max(2),
    });
    for (const v of sample(arbitraryOf(s))) expect(s.safeParse(v).success, JSON.stringify(v)).toBe(true);
  });

  it("leaves optional and defaulted fields out sometimes and fills them in other times", () => {
    const s = z.strictObject({ a: z.string().optional(), b: z.boolean().default(false), c: z.symbol() });
    expect(() => arbitraryOf(s)).toThrow(/zod symbol/);
    const t = z.strictObject({ a: z.string().optional(), b: z.boolean().default(false) });
    const values = sample(arbitraryOf(t)) as Record<string, unknown>[];
    for (const key of ["a", "b"]) {
      expect(values.some((v) => key in v)).toBe(true);
      expect(values.some((v) => !(key in v))).toBe(true);
    }
  });

  it("gives a loose object unknown keys, a strict one none", () => {
    const loose = sample(arbitraryOf(z.looseObject({ k: z.literal(1) }))) as Record<string, unknown>[];
    expect(loose.some((v) => Object.keys(v).length > 1)).toBe(true);
    const strict = sample(arbitraryOf(z.strictObject({ k: z.literal(1) }))) as Record<string, unknown>[];
    expect(strict.every((v) => Object.keys(v).join() === "k")).toBe(true);
  });

  it("reaches every option of a discriminated union, and both sides of a nullable", () => {
    const u = z.discriminatedUnion("act", [
      z.strictObject({ act: z.literal("a") }),
      z.strictObject({ act: z.enum(["b", "c"]), n: z.number().int() }),
    ]);
    const acts = new Set(sample(arbitraryOf(u)).map((v) => (v as { act: string }).act));
    expect([...acts].sort()).toEqual(["a", "b", "c"]);
    const n = sample(arbitraryOf(z.string().nullable()));
    expect(n.some((v) => v === null) && n.some((v) => typeof v === "string")).toBe(true);
  });

  it("takes half of a hinted field's values from the hint", () => {
    const s = z.strictObject({ nick: z.string().max(64), inner: z.strictObject({ nick: z.string() }) });
    const values = sample(arbitraryOf(s, { nick: fc.constant("Аня") })) as {
      nick: string;
      inner: { nick: string };
    }[];
    for (const pick of [
      (v: (typeof values)[number]) => v.nick,
      (v: (typeof values)[number]) => v.inner.nick,
    ]) {
      const hinted = values.filter((v) => pick(v) === "Аня").length;
      expect(hinted).toBeGreaterThan(values.length / 4);
      expect(hinted).toBeLessThan(values.length);
    }
  });

  it("gives S3's role list a generator of its own: lists S3 allows, of many lengths; a new game's body carries them and other thresholds", () => {
    const lists = sample(arbitraryOf(roleListSchema)) as string[][];
    for (const l of lists) expect(roleListSchema.safeParse(l).success, JSON.stringify(l)).toBe(true);
    expect(new Set(lists.map((l) => l.length)).size).toBeGreaterThan(10);
    expect(lists.some((l) => l.length > 17)).toBe(true);
    const games = sample(arbitraryOf(createGameSchema)) as {
      roles?: string[];
      options?: { revealAbove?: number };
    }[];
    expect(games.some((g) => g.roles !== undefined && g.roles.length !== 17)).toBe(true);
    expect(games.some((g) => g.options?.revealAbove !== undefined && g.options.revealAbove !== 10)).toBe(
      true,
    );
  });

  it("writes a template literal as zod reads it", () => {
    const s = z.templateLiteral(["gm:", z.number()]);
    for (const v of sample(arbitraryOf(s))) expect(s.safeParse(v).success).toBe(true);
  });

  it("throws on a kind of schema it does not know, naming it", () => {
    expect(() => arbitraryOf(z.date())).toThrow(/zod date/);
    expect(() => arbitraryOf(z.url())).toThrow(/string format url/);
    expect(sample(arbitraryOf(z.null()))).toEqual(new Array(300).fill(null));
    for (const address of sample(arbitraryOf(z.email().max(254))))
      expect(z.email().safeParse(address).success).toBe(true);
    expect(() => arbitraryOf(z.number().multipleOf(5))).toThrow(/multiple_of/);
    expect(() => arbitraryOf(z.strictObject({ when: z.bigint() }))).toThrow(/zod bigint/);
  });
});
