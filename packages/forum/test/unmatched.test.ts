import { describe, expect, it } from "vitest";
import { nearestNames, unmatchedColours, votesInPost } from "../src/index.ts";

const NAMES = ["Белый Кролик", "Вася", "Оля", "Оля К", "Петя Иванов", "Кот"] as const;

describe("unmatchedColours: coloured text that names no player (issue 12)", () => {
  it("V2: a red «Кролик» for «Белый Кролик» is no vote, and names «Белый Кролик» as the nearest", () => {
    const post = "[color=red]Кролик[/color]";
    expect(votesInPost(post, NAMES)).toEqual([]);
    expect(unmatchedColours(post, NAMES)).toEqual([
      { color: "red", text: "Кролик", nearest: ["Белый Кролик"], index: 0 },
    ]);
  });

  it("V2: a vote, a quote, a colour that is no vote colour and a nested vote are not listed", () => {
    const post =
      "[color=red]Вася[/color] [quote][color=red]Кролик[/color][/quote] [color=green]Кролик[/color] " +
      "[color=purple]за [color=blue]Оля[/color][/color]";
    expect(unmatchedColours(post, NAMES)).toEqual([]);
  });

  it("V2: blue text, inner whitespace and [b] inside are read like a name; a typo finds the name", () => {
    expect(unmatchedColours("[color=#00f] [b]Васи[/b]   [/color]", NAMES)).toEqual([
      { color: "blue", text: "Васи", nearest: ["Вася"], index: 0 },
    ]);
    expect(unmatchedColours("[color=red]Петя  Ивонов[/color]", NAMES)[0]?.nearest).toEqual(["Петя Иванов"]);
  });

  it("V2: text that resembles nobody has no nearest names; a whole red sentence names the player in it", () => {
    expect(unmatchedColours("[color=red]Шмыг[/color]", NAMES)[0]?.nearest).toEqual([]);
    expect(nearestNames("я думаю, Вася — мафия", NAMES)).toEqual(["Вася"]);
    expect(nearestNames("О", NAMES)).toEqual([]);
  });
});
