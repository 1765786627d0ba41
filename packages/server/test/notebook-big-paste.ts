import type { RoleId } from "@forum-mafia/protocol";

/**
 * Issue 28, item 1: the finding's notebook, for notebook-load.test.ts and bench/notebook.bench.ts: 17
 * players dealt by hand, and a day's thread of about 5 MB holding 17,700 votes.
 */

export const NAMES = [
  "Аня",
  "Борис",
  "Вика",
  "Гоша",
  "Даша",
  "Егор",
  "Женя",
  "Зоя",
  "Игорь",
  "Катя",
  "Лёва",
  "Маша",
  "Нина",
  "Олег",
  "Петя",
  "Рита",
  "Семён",
];
export const ROLES: RoleId[] = [
  "boss",
  "thug",
  "lawyer",
  "sheriff",
  "doctor",
  ...NAMES.slice(5).map((): RoleId => "citizen"),
];

/** Votes in the paste: as many as the finding's notebook day kept. */
export const PASTE_VOTES = 17_700;
/** The paste's size: under the thread's 5 MiB limit with its JSON around it. */
const PASTE_BYTES = 5_000_000;

/**
 * A day's thread of `votes` posts, about `bytes` long in UTF-8 (BBCode multi-quote, as the GM copies it):
 * post i is seat i mod 17 voting red for the next seat, padded with talk.
 */
export function bigPaste(names: readonly string[], votes = PASTE_VOTES, bytes = PASTE_BYTES): string {
  const post = (i: number, pad: string): string =>
    `[quote="${names[i % names.length]!}" post_id=${i + 1}]Голосую [color=red]${names[(i + 1) % names.length]!}[/color] ${pad}[/quote]\n`;
  const bare = Buffer.byteLength(Array.from({ length: votes }, (_, i) => post(i, "")).join(""));
  const pad = "бла ".repeat(Math.max(0, Math.floor((bytes - bare) / votes / Buffer.byteLength("бла "))));
  return Array.from({ length: votes }, (_, i) => post(i, pad)).join("");
}
