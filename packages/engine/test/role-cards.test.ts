import { describe, expect, it } from "vitest";
import { ROLES } from "../src/roles.ts";
import { DEFAULT_OPTIONS, ROLE_IDS, roleCard, roleName, type RoleId } from "../src/index.ts";

/** Each role's card under the default thresholds, as the tests below read it. */
const ROLE_CARDS = Object.fromEntries(
  ROLE_IDS.map((role) => [
    role,
    { ru: roleCard(role, "ru", DEFAULT_OPTIONS), en: roleCard(role, "en", DEFAULT_OPTIONS) },
  ]),
) as Record<RoleId, { ru: readonly string[]; en: readonly string[] }>;

describe("the role card of the private role message", () => {
  it("S1: every role has a card in Russian and in English that opens by naming the role", () => {
    for (const role of ROLE_IDS)
      for (const lang of ["ru", "en"] as const) {
        const card = ROLE_CARDS[role][lang];
        expect(card.length).toBeGreaterThan(1);
        expect(card[0]!.toLowerCase()).toContain(roleName(role, lang).toLowerCase());
      }
  });

  it("P2, T7: the cards of roles with a night action remind of the deadline; the others do not", () => {
    for (const role of ROLE_IDS) {
      const hasAction = ROLES[role].ownAct !== null || role === "boss";
      expect(ROLE_CARDS[role].ru.some((line) => line.includes("до дедлайна"))).toBe(hasAction);
      expect(ROLE_CARDS[role].en.some((line) => line.includes("before the deadline"))).toBe(hasAction);
    }
  });

  it("V4: the doctor's and the prosecutor's cards give their vote weights; the public never sees them", () => {
    expect(ROLE_CARDS.doctor.ru.join(" ")).toContain("синий голос считается за три");
    expect(ROLE_CARDS.prosecutor.ru.join(" ")).toContain("красный голос считается за два");
    expect(ROLE_CARDS.citizen.ru.join(" ")).not.toMatch(/за три|за два/);
  });
});

describe("S3: the role cards say the game's thresholds", () => {
  it("S3, T3a, T3c: the doctor's card says the game's numbers; under the defaults 15 and 10 (RULES.md S3)", () => {
    const ru = roleCard("doctor", "ru", DEFAULT_OPTIONS).join(" ");
    expect(ru).toContain("при менее чем 15 живых — не две ночи подряд");
    expect(ru).toContain("и живых больше 10;");
    const custom = roleCard("doctor", "ru", {
      ...DEFAULT_OPTIONS,
      serumRepeatBelow: 12,
      revealAbove: 7,
    }).join(" ");
    expect(custom).toContain("при менее чем 12 живых — не две ночи подряд");
    expect(custom).toContain("и живых больше 7;");
    expect(roleCard("doctor", "en", { ...DEFAULT_OPTIONS, revealAbove: 7 }).join(" ")).toContain(
      "more than 7 are;",
    );
  });

  it("S3, M2, M2b: the boss's card says when two may not be killed and when three may be intimidated", () => {
    const boss = roleCard("boss", "ru", { ...DEFAULT_OPTIONS, lapseAt: 4, threeIntimidationsFrom: 8 }).join(
      " ",
    );
    expect(boss).toContain("Когда живых остаётся 4, убить двоих нельзя.");
    expect(boss).toContain("при менее чем 8 живых — не больше двух");
  });

  it("S3: no card holds a token that was not put in, in either language", () => {
    for (const role of ROLE_IDS)
      for (const lang of ["ru", "en"] as const)
        expect(roleCard(role, lang, DEFAULT_OPTIONS).join(" ")).not.toMatch(/[{}]/);
  });
});
