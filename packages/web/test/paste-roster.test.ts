import { describe, expect, it } from "vitest";
import { addAlias, addPlayer, rosterPlayers } from "../src/screens/tools/roster.ts";

/**
 * Issue 18: the player list (PLAYERS.txt, `Ник` or `Ник | alias | alias` a line) as the tools page edits it
 * from a pasted thread's authors. Expected lists written by hand.
 */
describe("the player list edited from the authors found in a paste", () => {
  it("adds an author as a player on a line of their own", () => {
    expect(addPlayer("", "Гость")).toBe("Гость");
    expect(addPlayer("Вася\nПетя", "Гость")).toBe("Вася\nПетя\nГость");
    expect(addPlayer("Вася\nПетя\n\n  ", "Гость")).toBe("Вася\nПетя\nГость");
  });

  it("appends an alias to the chosen player's line, after any aliases it has", () => {
    expect(addAlias("Вася\nПетя\nМаша", "Петя", "Петруччо")).toBe("Вася\nПетя | Петруччо\nМаша");
    expect(addAlias("Вася\nПетя | Петька  \nМаша", "Петя", "Петруччо")).toBe(
      "Вася\nПетя | Петька | Петруччо\nМаша",
    );
    // A player whose name is another's alias: only the line that starts with the name is theirs.
    expect(addAlias("Вася | Петя\nПетя", "Петя", "П.")).toBe("Вася | Петя\nПетя | П.");
  });

  it("leaves the list as it is when no line is the player's", () => {
    expect(addAlias("Вася\nПетя", "Коля", "Колян")).toBe("Вася\nПетя");
  });

  it("lists the players, each line's first name", () => {
    expect(rosterPlayers("Вася\n\nПетя | Петруччо\r\n  Маша  \n")).toEqual(["Вася", "Петя", "Маша"]);
  });
});
