import { renderBBCode } from "@forum-mafia/forum";
import { describe, expect, it } from "vitest";
import { en, ru } from "../src/i18n/common.ts";
import { withVoteWords } from "../src/vote-words.ts";

/**
 * Issue 32: a vote colour is never the only mark. A post's red or blue vote (V2), as the server renders it,
 * is shown with its colour's name for a screen reader, in the reader's language; other colours are not.
 */
describe("the spoken names of the vote colours", () => {
  it("V2: «красный» before a red vote and «синий» before a blue one, each in its own mark", () => {
    const html = renderBBCode("Голосую [color=red]Борис[/color], защищаю [color=#0000ff]Вика[/color].");
    expect(withVoteWords(html, ru.voteWords)).toBe(
      'Голосую <span class="vote-red" style="color:red"><span class="sr-only vote-word">красный: </span>Борис</span>, ' +
        'защищаю <span class="vote-blue" style="color:#0000ff"><span class="sr-only vote-word">синий: </span>Вика</span>.',
    );
  });

  it("in English «red» and «blue»", () => {
    const html = renderBBCode("[color=darkred]Борис[/color] [color=navy]Вика[/color]");
    const out = withVoteWords(html, en.voteWords);
    expect(out).toContain('<span class="sr-only vote-word">red: </span>Борис');
    expect(out).toContain('<span class="sr-only vote-word">blue: </span>Вика');
  });

  it("a colour that is no vote (green, orange) gets no word", () => {
    const html = renderBBCode("[color=green]Борис[/color] [color=orange]Вика[/color]");
    expect(withVoteWords(html, ru.voteWords)).toBe(html);
    expect(html).not.toContain("vote-");
  });
});
