import { describe, expect, it } from "vitest";
import { nightForm } from "../src/night-form.ts";
import { NAMES, STANDARD, game, heal, visit } from "./scenario.ts";

const seat = (name: string): number => NAMES.indexOf(name);

/** The night form after night 1 (with `actions`) and a quiet day 1: night 2's form for `who`. */
const secondNight = (who: string, actions: Parameters<ReturnType<typeof game>["night"]>[0]) => {
  const m = game(STANDARD, { seed: "night-form" }).night(actions).day().match;
  expect(m.state.phase).toMatchObject({ kind: "night", number: 2 });
  return nightForm(m.state, seat(who))!;
};

describe("the night form's unavailable targets", () => {
  it("T4: last night's visit target is listed unavailable with night/repeat-target, not as a target", () => {
    const form = secondNight("Девочка", { Девочка: visit("Мирный1") });
    const act = form.acts.find((a) => a.act === "visit")!;
    expect(act.targets).not.toContain(seat("Мирный1"));
    expect(act.unavailable).toContainEqual({
      seat: seat("Мирный1"),
      reason: "night/repeat-target",
      clause: "T4",
    });
    // O1a: oneself, with its own reason; every living player is either a target or unavailable.
    expect(act.unavailable).toContainEqual({
      seat: seat("Девочка"),
      reason: "night/self-target",
      clause: "O1a",
    });
    expect(act.targets.length + act.unavailable.length).toBe(NAMES.length);
  });

  it("T3e: the doctor's heal of last night's patient is unavailable; the serum stays open (T3a at 17 alive)", () => {
    const form = secondNight("Доктор", { Доктор: heal("Мирный2") });
    const h = form.acts.find((a) => a.act === "heal")!;
    expect(h.unavailable).toEqual([{ seat: seat("Мирный2"), reason: "night/repeat-target", clause: "T3e" }]);
    const s = form.acts.find((a) => a.act === "serum")!;
    expect(s.targets).toContain(seat("Мирный2"));
  });

  it("O1a: the mafia's form lists the mafia members as unavailable, night/mafia-target", () => {
    const form = secondNight("Босс", { Доктор: heal("Мирный3") });
    const mafia = form.acts.find((a) => a.act === "mafia")!;
    for (const name of ["Босс", "Тролль", "Эльф", "Адвокат", "Громила"])
      expect(mafia.unavailable).toContainEqual({
        seat: seat(name),
        reason: "night/mafia-target",
        clause: "O1a",
      });
    expect(mafia.targets).not.toContain(seat("Тролль"));
  });
});
