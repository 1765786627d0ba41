import { roleListSchema, SETUP_PRESETS, type RoleId } from "@forum-mafia/protocol";
import fc from "fast-check";
import { z } from "zod";
import { pasteSchema, voteCountToolSchema } from "../src/tools/tools.ts";

/**
 * A fast-check arbitrary for the input a zod schema accepts: what a client could send, before zod's
 * defaults and transforms. The fuzz suite (fuzz.test.ts) sends these to every route.
 *
 * Why not `zod-fast-check`, the package STYLE.md names: its latest release (0.10.1) wants zod ^3 and
 * fast-check <4, and it reads zod 3's internals (`_def.typeName`), which zod 4 no longer has; this repo is
 * on zod 4 and fast-check 4, and no other package maps the one to the other. So this is a small converter
 * over zod 4's own introspection (`schema._zod.def`: its `type`, its `checks`, its parts), covering the
 * kinds our request schemas use. Any other kind throws, so a new kind of schema fails the suite loudly
 * rather than going unfuzzed.
 *
 * Refinements (`.refine`) are ignored: the values are generated from the shape and the checks zod states
 * (lengths, bounds, patterns, integers). The one exception is S3's role list (`roleListSchema`), whose
 * refinement random arrays of roles would nearly always fail: it has a generator of its own (`roleLists`);
 * so have a pasted thread (`pasteSchema`: html or text not blank) and the vote counter's body (exactly one of
 * `thread` and `paste`), issue 18. Overwrites (`.trim()`) are respected by generating only strings
 * they leave unchanged, so a length check holds for what zod checks. Strings are made of printable
 * graphemes (never U+0000 or half a surrogate pair: the fuzz suite's hostile inputs bring those).
 *
 * Random text seldom gets past the game's own rules (a nick, a time zone, a seat that exists), so a
 * caller may give hints: for an object field of that name, half the values come from the hint instead.
 */

/** Values to try for object fields of a given name, as well as the schema's own. */
export type Hints = Readonly<Record<string, fc.Arbitrary<unknown>>>;

type Schema = z.core.$ZodType;
type Check = (z.core.$ZodChecks | z.core.$ZodCustom)["_zod"]["def"];

/** The checks on a schema; a format schema (`z.email()`, `z.int()`) is its own first check, as in zod. */
const checksOf = (def: z.core.$ZodTypeDef): Check[] => [
  ...("check" in def ? [def as Check] : []),
  ...(def.checks ?? []).map((c) => (c as z.core.$ZodChecks | z.core.$ZodCustom)._zod.def),
];

const unsupported = (what: string): Error =>
  new Error(`zod-arbitrary: no generator for ${what}; add one to packages/server/test/zod-arbitrary.ts`);

/** Bounds as zod states them: lengths for strings and arrays, values for numbers. */
interface Bounds {
  min: number;
  max: number;
  minExcluded: boolean;
  maxExcluded: boolean;
  int: boolean;
  patterns: RegExp[];
  /** `z.email()`: generated as addresses (fast-check's), then checked against zod's own pattern. */
  email: boolean;
  overwrites: ((value: string) => string)[];
}

function boundsOf(def: z.core.$ZodTypeDef, kind: string): Bounds {
  const b: Bounds = {
    min: -Infinity,
    max: Infinity,
    minExcluded: false,
    maxExcluded: false,
    int: false,
    patterns: [],
    email: false,
    overwrites: [],
  };
  for (const c of checksOf(def)) {
    switch (c.check) {
      case "custom": // a refinement: ignored (see above)
        break;
      case "min_length":
        b.min = Math.max(b.min, c.minimum);
        break;
      case "max_length":
        b.max = Math.min(b.max, c.maximum);
        break;
      case "length_equals":
        b.min = Math.max(b.min, c.length);
        b.max = Math.min(b.max, c.length);
        break;
      case "greater_than":
        if (Number(c.value) >= b.min) [b.min, b.minExcluded] = [Number(c.value), !c.inclusive];
        break;
      case "less_than":
        if (Number(c.value) <= b.max) [b.max, b.maxExcluded] = [Number(c.value), !c.inclusive];
        break;
      case "number_format":
        if (c.format !== "safeint") throw unsupported(`the number format ${c.format}`);
        b.int = true;
        break;
      case "string_format":
        if ((c.format !== "regex" && c.format !== "email") || !c.pattern)
          throw unsupported(`the string format ${c.format}`);
        if (c.format === "email") b.email = true;
        b.patterns.push(c.pattern);
        break;
      case "overwrite":
        b.overwrites.push(c.tx as (value: string) => string);
        break;
      default:
        throw unsupported(`the check ${c.check} on a ${kind}`);
    }
  }
  return b;
}

function stringOf(b: Bounds): fc.Arbitrary<string> {
  const [first, ...rest] = b.patterns;
  const more = b.email ? b.patterns : rest;
  const min = Math.max(0, b.min);
  const base = b.email
    ? fc.emailAddress()
    : first
      ? fc.stringMatching(first)
      : fc.string({ unit: "grapheme", minLength: min, ...(b.max < Infinity ? { maxLength: b.max } : {}) });
  // Lengths are UTF-16 units for zod and graphemes for fast-check: checked again here.
  return base.filter(
    (s) =>
      s.length >= min &&
      s.length <= b.max &&
      more.every((p) => p.test(s)) &&
      b.overwrites.every((tx) => tx(s) === s),
  );
}

function numberOf(b: Bounds): fc.Arbitrary<number> {
  if (b.int) {
    const min = Math.max(Number.MIN_SAFE_INTEGER, b.minExcluded ? Math.floor(b.min) + 1 : Math.ceil(b.min));
    const max = Math.min(Number.MAX_SAFE_INTEGER, b.maxExcluded ? Math.ceil(b.max) - 1 : Math.floor(b.max));
    return fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number);
  }
  return fc.double({
    noNaN: true,
    noDefaultInfinity: true,
    ...(b.min > -Infinity ? { min: b.min, minExcluded: b.minExcluded } : {}),
    ...(b.max < Infinity ? { max: b.max, maxExcluded: b.maxExcluded } : {}),
  });
}

/** Absent from an object: an optional field, or one with a default. */
const mayBeAbsent = (schema: Schema): boolean => schema._zod.optin !== undefined;

function objectOf(def: z.core.$ZodObjectDef, hints: Hints): fc.Arbitrary<Record<string, unknown>> {
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  const required: string[] = [];
  for (const [key, field] of Object.entries(def.shape)) {
    const own = arbitraryOf(field, hints);
    const hint = Object.hasOwn(hints, key) ? hints[key] : undefined;
    fields[key] = hint ? fc.oneof(hint, own) : own;
    if (!mayBeAbsent(field)) required.push(key);
  }
  const known = fc.record(fields, { requiredKeys: required });
  const catchall = def.catchall;
  // A strict object (`never`) or a stripping one (no catchall) gets no other keys; a loose one gets some.
  if (!catchall || catchall._zod.def.type === "never") return known;
  const extra = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !(k in def.shape)),
    arbitraryOf(catchall, hints),
    { maxKeys: 3 },
  );
  return fc.tuple(known, extra).map(([k, e]) => ({ ...e, ...k }));
}

/**
 * S3's role lists, written from RULES.md rather than the code under test: each role of §1's table at most
 * once but `citizen`, any number of those; at least one town player and at least one mafia member or the
 * maniac; at most 40 seats (MAX_SEATS). A quarter of them are the editor's presets.
 */
const ONCE: readonly RoleId[] = [
  ...["boss", "troll", "elf", "lawyer", "thug", "maniac"],
  ...["sheriff", "sergeant", "doctor", "girl", "prosecutor", "shahid"],
] as RoleId[];
const OPPONENTS = new Set<RoleId>(["boss", "troll", "elf", "lawyer", "thug", "maniac"]);
export const roleLists: fc.Arbitrary<RoleId[]> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(...SETUP_PRESETS.map((p) => [...p.setup.roles])) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.shuffledSubarray([...ONCE], { minLength: 1 }), fc.nat({ max: 28 }))
      .map(([once, citizens]): RoleId[] => [
        ...once,
        ...Array.from({ length: citizens }, (): RoleId => "citizen"),
      ])
      .filter(
        (roles) =>
          roles.length <= 40 && roles.some((r) => OPPONENTS.has(r)) && roles.some((r) => !OPPONENTS.has(r)),
      )
      .chain((roles) => fc.shuffledSubarray(roles, { minLength: roles.length, maxLength: roles.length })),
  },
);

/** A paste of a thread (issue 18): its HTML or its text holds something that is not blank. */
const notBlank = fc.string({ minLength: 1, maxLength: 200 }).filter((s) => s.trim() !== "");
const pastes: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ html: notBlank }),
  fc.record({ text: notBlank }),
  fc.record({ html: notBlank, text: fc.string({ maxLength: 200 }) }),
);

/** The vote counter's body: its fields, with exactly one of `thread` (JSON posts) and `paste`. */
function voteCountBodies(): fc.Arbitrary<unknown> {
  const { thread, ...rest } = voteCountToolSchema.shape;
  const common = { players: rest.players, gm: rest.gm, day: rest.day, silenced: rest.silenced };
  const withThread = arbitraryOf(z.strictObject({ ...common, thread: thread.unwrap() }));
  const withoutThread = arbitraryOf(z.strictObject(common));
  return fc.oneof(
    withThread,
    fc.tuple(withoutThread, pastes).map(([body, paste]) => ({ ...(body as object), paste })),
  );
}

/** Schemas whose refinements the shape cannot give: generated their own way (made when first asked). */
const OWN = new Map<Schema, () => fc.Arbitrary<unknown>>([
  [roleListSchema, () => roleLists],
  [pasteSchema, () => pastes],
  [voteCountToolSchema, voteCountBodies],
]);

/** The arbitrary of the values `schema` accepts as input (refinements aside). */
export function arbitraryOf(schema: Schema, hints: Hints = {}): fc.Arbitrary<unknown> {
  const own = OWN.get(schema);
  if (own) return own();
  const of = (s: Schema): fc.Arbitrary<unknown> => arbitraryOf(s, hints);
  const def = (schema as z.core.$ZodTypes)._zod.def;
  switch (def.type) {
    case "string":
      return stringOf(boundsOf(def, "string"));
    case "number":
      return numberOf(boundsOf(def, "number"));
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "enum":
      return fc.constantFrom(...Object.values(def.entries));
    case "literal":
      return fc.constantFrom(...def.values);
    case "template_literal":
      return fc.stringMatching((schema as z.core.$ZodTemplateLiteral)._zod.pattern);
    case "union": // a discriminated union too: its options carry the discriminator
      return fc.oneof(...def.options.map(of));
    case "object":
      return objectOf(def, hints);
    case "array": {
      const b = boundsOf(def, "array");
      return fc.array(of(def.element), {
        minLength: Math.max(0, b.min),
        ...(b.max < Infinity ? { maxLength: b.max } : {}),
      });
    }
    case "record":
      return fc.dictionary(
        of(def.keyType).filter((k): k is string => typeof k === "string"),
        of(def.valueType),
        { maxKeys: 5 },
      );
    case "optional":
      return fc.option(of(def.innerType), { nil: undefined });
    case "nullable":
      return fc.option(of(def.innerType), { nil: null });
    case "default": // the input may leave it out; zod then puts the default in
      return fc.option(of(def.innerType), { nil: undefined });
    case "pipe":
      return of(def.in);
    case "unknown":
      return fc.jsonValue({ maxDepth: 2 });
    default:
      throw unsupported(`a zod ${def.type}`);
  }
}
