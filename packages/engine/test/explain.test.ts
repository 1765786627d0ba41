import { describe, expect, it } from "vitest";
import { explainNight, type NightOutcome } from "../src/index.ts";
import { STANDARD, game, heal, kill, mark, shoot, visit, type Scenario } from "./scenario.ts";

const draft = (g: Scenario, lang: "ru" | "en" = "ru"): string[] => {
  const last = g.match.outcomes.at(-1)!;
  return explainNight(last.outcome as NightOutcome, last.players, lang);
};

describe("the GM's draft of a night", () => {
  it("T6: the draft says the shahid was attacked and his mark fired, even though the doctor saved him", () => {
    const g = game(STANDARD).night({ Босс: kill("Шахид"), Доктор: heal("Шахид"), Шахид: mark("Мирный1") });
    expect(draft(g)).toEqual([
      "Шахид (Шахид): убийство мафии — отменено лечением доктора (T3b)",
      "Шахид (Шахид): шахид атакован, метка сработала (T6)",
      "Мирный1 (Мирный житель): метка шахида (T6) — погиб",
    ]);
    expect(draft(g, "en")).toEqual([
      "Шахид (Shahid): the mafia's kill — saved by the doctor's heal (T3b)",
      "Шахид (Shahid): the shahid was attacked, the mark fired (T6)",
      "Мирный1 (Citizen): the shahid's mark (T6) — died",
    ]);
  });

  it("O2: the draft names the blocked player and the roll that followed the visit", () => {
    const g = game(STANDARD).night(
      { Девочка: visit("Шериф"), Шериф: shoot("Мирный2") },
      { rolls: { girlSilence: true } },
    );
    expect(draft(g)).toEqual([
      "Шериф (Шериф): заблокирован, действие отменено (O2)",
      "Бросок: немота от девочки (T4, 50%) — да (задан ведущим)",
    ]);
  });

  it("P2: the draft lists the players who sent nothing, and a quiet night says so", () => {
    const g = game("Аня=boss Катя=doctor Оля=citizen Поля=citizen Зоя=citizen").night(
      {},
      { autoPass: false },
    );
    expect(draft(g)).toEqual([
      "Аня (Босс мафии): нет ночного действия — страйк и +2 голоса завтра (P2)",
      "Катя (Доктор): нет ночного действия — страйк и +2 голоса завтра (P2)",
    ]);
    expect(draft(game(STANDARD).night())).toEqual(["Ночью ничего не произошло."]);
  });
});
