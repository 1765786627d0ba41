import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runReplay, stringifyResult } from "../src/index.ts";
import { STANDARD, game, kill, heal, visit } from "./scenario.ts";

describe("the REPLAY.md example", () => {
  it("M3: a double kill makes the boss's vote uncounted; the sample replays to its published outcome", () => {
    const input = JSON.parse(readFileSync(new URL("../samples/six-players.json", import.meta.url), "utf8"));
    const output = JSON.parse(
      readFileSync(new URL("../samples/six-players.out.json", import.meta.url), "utf8"),
    );
    expect(runReplay(input)).toEqual(output);
  });
});

describe("scenario language", () => {
  it("T4: the girl's visit on the boss cancels the mafia's kill", () => {
    const g = game(STANDARD).night(
      { Девочка: visit("Босс"), Босс: kill("Мирный1") },
      { rolls: { girlSilence: false } },
    );
    expect(g.lastNight.died).toEqual([]);
    const h = game(STANDARD).night({ Босс: kill("Мирный1"), Доктор: heal("Мирный2") });
    expect(h.lastNight.died).toEqual(["Мирный1"]);
    expect(h.lastNight.revealed).toEqual({ Мирный1: "citizen" });
  });
});

describe("the outcome's JSON text", () => {
  it("A3: name-keyed maps are written in code point order, even for names that look like numbers", () => {
    const g = game("Босс=boss 2=citizen 10=citizen Вася=citizen Оля=citizen")
      .night()
      .day("2>Вася 10>Вася Вася>Оля Оля>10 Босс>2");
    const text = stringifyResult(g.result);
    const score = text.slice(text.indexOf('"score"'), text.indexOf("}", text.indexOf('"score"')));
    expect(score.match(/"(10|2|Вася)"/g)).toEqual(['"10"', '"2"', '"Вася"']);
    expect(JSON.parse(text)).toEqual(g.result);
  });
});
