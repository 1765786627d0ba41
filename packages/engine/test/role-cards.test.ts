import { describe, expect, it } from "vitest";
import { ROLES } from "../src/roles.ts";
import { ROLE_CARDS, ROLE_IDS, roleName } from "../src/index.ts";

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
