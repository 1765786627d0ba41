import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * TEXTS.ru.md: nicknames carry no grammatical gender, so the texts avoid gendered forms that agree with a
 * nickname; «сдал(а)», «жив(а)», «выбыл(а)» are the forms it forbids (issue 32: the notebook had them). Every
 * file that holds Russian words players or GMs read is scanned: the web app's dictionaries, the engine's
 * texts, the server's. The forum package is left out: its readers quote other forums' own markup («Аня
 * писал(а):»), which is what they must recognise.
 */
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SCANNED = ["packages/web/src", "packages/engine/src", "packages/server/src"];
/** A Russian word with a bracketed ending: «сдал(а)», «выбыл(а)», «готов(а)», «должен(на)». */
const BRACKETED_ENDING = /[а-яё]+\((?:а|ла|на|ь|о|и|ы|ая|ой|ый)\)/giu;

const files = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(?:ts|tsx)$/.test(f))
    .map((f) => join(dir, f));

describe("gender-neutral Russian (TEXTS.ru.md, issue 32)", () => {
  it("the scan sees the forbidden forms", () => {
    expect("ещё не сдал(а) ход, жив(а), выбыл(а)".match(BRACKETED_ENDING)).toHaveLength(3);
    expect("Аня писал(а): (а) вариант".match(BRACKETED_ENDING)).toHaveLength(1);
  });

  it("no Russian text the app, the engine or the server writes has a bracketed gendered ending", () => {
    const found = SCANNED.flatMap(files).flatMap((file) =>
      readFileSync(join(ROOT, file), "utf8")
        .split("\n")
        .flatMap((line, i) => (line.match(BRACKETED_ENDING) ?? []).map((m) => `${file}:${i + 1}: ${m}`)),
    );
    expect(found).toEqual([]);
  });
});
