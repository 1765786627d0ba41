import type { Locator } from "playwright-core";
import { expect } from "vitest";

/**
 * G5 (issue 31): the flags of server/test/g5-thread.ts's thread, as a paste's findings list them on /tools
 * and in a notebook's day, worked by hand: Петя's p202 swears (х*й), Маша's p203 calls Коля «дебил»; the
 * others hold trap words (употреблять, команда, страхуй) or quote Петя's мат. Returns the list's region.
 */
export async function expectG5Flags(found: Locator): Promise<Locator> {
  const flags = found.getByRole("region", { name: "Нарушения правил: мат и оскорбления" });
  await flags.waitFor();
  expect(await flags.locator("li").allTextContents()).toEqual([
    "Пост p202 — Петя — мат: х*й",
    "Пост p203 — Маша — оскорбление: дебил",
  ]);
  expect(await flags.locator("li mark").allTextContents()).toEqual(["х*й", "дебил"]);
  // Russian only: the forum's own post labels (p202) aside, no Latin letters.
  expect((await flags.innerText()).replace(/\bp20\d\b/g, "")).not.toMatch(/[A-Za-z]/);
  await flags.scrollIntoViewIfNeeded();
  return flags;
}
