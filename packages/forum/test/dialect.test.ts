import { describe, expect, it } from "vitest";
import { bbcodeDialect } from "../src/index.ts";

const POST = [
  "[b]Голосование, день 2[/b]",
  "Против:",
  "[color=red]Дина[/color] (2): Аня, Борис",
  "В защиту:",
  "[color=blue]Аня[/color] (1): [i]Женя[/i] [u]и[/u]",
  "[quote=Аня]Голосую [color=#ff0000]Дина[/color][/quote]",
  "[quote]без автора[/quote] [x] [1] [color] a[b]",
].join("\n");

describe("bbcodeDialect", () => {
  it('"lower" (phpBB, SMF, Discourse) leaves the app\'s BBCode as it is', () => {
    expect(bbcodeDialect(POST, "lower")).toBe(POST);
  });

  it('"upper" (vBulletin, XenForo, IPB) writes the tags in capitals, colours as the editors name them', () => {
    expect(bbcodeDialect(POST, "upper")).toBe(
      [
        "[B]Голосование, день 2[/B]",
        "Против:",
        '[COLOR="Red"]Дина[/COLOR] (2): Аня, Борис',
        "В защиту:",
        '[COLOR="Blue"]Аня[/COLOR] (1): [I]Женя[/I] [U]и[/U]',
        '[QUOTE="Аня"]Голосую [COLOR="#ff0000"]Дина[/COLOR][/QUOTE]',
        "[QUOTE]без автора[/QUOTE] [x] [1] [COLOR] a[B]",
      ].join("\n"),
    );
  });

  it("V2: an upper-case count still reads as the same votes", async () => {
    const { voteMarks } = await import("../src/vote-marks.ts");
    const reader = { coloured: ({ text }: { text: string }) => text, written: () => null };
    const marks = (s: string): string[] => voteMarks(s, reader).marks.map((m) => `${m.color}:${m.name}`);
    expect(marks(bbcodeDialect(POST.split("\n").slice(0, 5).join("\n"), "upper"))).toEqual([
      "red:Дина",
      "blue:Аня",
    ]);
  });
});
