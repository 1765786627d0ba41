import { DEFAULT_OPTIONS } from "@forum-mafia/protocol";
import { describe, expect, it } from "vitest";
import { rebuildCount } from "../src/notebooks/notebook.ts";
import { emptyPhase, writeDoc, type NotebookDoc } from "../src/notebooks/notebook-doc.ts";
import { NotebookCache } from "../src/notebooks/notebook-cache.ts";

/** Issue 28, item 1: what the notebook routes keep per notebook and version (notebook-cache.ts). */

const doc = (title: string): NotebookDoc => ({
  format: 1,
  players: ["Аня", "Борис", "Вика", title],
  roles: ["boss", "sheriff", "citizen", "citizen"],
  dealt: ["boss", "sheriff", "citizen", "citizen"],
  options: DEFAULT_OPTIONS,
  seed: null,
  dialect: "lower",
  gm: null,
  aliases: [[], [], [], []],
  closed: [],
  current: emptyPhase(),
  corrections: [],
});

describe("issue 28: the notebook cache", () => {
  it("rebuilds a version once, and again only for a new version", () => {
    const cache = new NotebookCache();
    const stored = writeDoc(doc("Гоша"));
    const before = rebuildCount();
    const a = cache.read("n1", 1, stored);
    const b = cache.read("n1", 1, stored);
    expect(b.built).toBe(a.built);
    expect(rebuildCount()).toBe(before + 1);
    cache.read("n1", 2, stored);
    expect(rebuildCount()).toBe(before + 2);
    // An older version read late (a request that started before a write) does not replace the newer one.
    cache.keep("n1", 1, a.doc, a.built);
    cache.read("n1", 2, stored);
    expect(rebuildCount()).toBe(before + 2);
  });

  it("serialises an answer once per version and key, each key apart", () => {
    const cache = new NotebookCache();
    cache.read("n1", 1, writeDoc(doc("Гоша")));
    let made = 0;
    const make = (what: string) => () => {
      made++;
      return { what };
    };
    const ru = cache.bytes("n1", 1, "view:ru", make("ru"));
    expect(cache.bytes("n1", 1, "view:ru", make("other"))).toBe(ru);
    expect(JSON.parse(cache.bytes("n1", 1, "published", make("published")).toString())).toEqual({
      what: "published",
    });
    expect(made).toBe(2);
    // A version not kept (another instance wrote meanwhile) is answered, and not kept.
    cache.bytes("n1", 5, "view:ru", make("v5"));
    cache.bytes("n1", 5, "view:ru", make("v5"));
    expect(made).toBe(4);
  });

  it("keeps at most its cap of notebooks and bytes, the least recently used dropped first", () => {
    const cache = new NotebookCache(2, 1000);
    for (const id of ["a", "b", "c"]) cache.read(id, 1, writeDoc(doc(id)));
    expect(cache.stats.entries).toBe(2);
    const before = rebuildCount();
    cache.read("c", 1, writeDoc(doc("c")));
    cache.read("b", 1, writeDoc(doc("b")));
    expect(rebuildCount()).toBe(before);
    cache.read("a", 1, writeDoc(doc("a"))); // dropped: rebuilt, and c (least recently used) goes
    expect(rebuildCount()).toBe(before + 1);
    cache.read("b", 1, writeDoc(doc("b")));
    expect(rebuildCount()).toBe(before + 1);
    cache.bytes("b", 1, "view:ru", () => "x".repeat(600));
    cache.bytes("a", 1, "view:ru", () => "y".repeat(600));
    expect(cache.stats.bytes).toBeLessThanOrEqual(1000);
    expect(cache.stats.entries).toBe(1);
  });
});
