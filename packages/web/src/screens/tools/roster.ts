/**
 * The vote counter's player list as the GM types it (PLAYERS.txt: `Ник` or `Ник | alias | alias` a line),
 * edited from the list of a pasted thread's authors (issue 18): an author added as a player, or as another
 * name of one. Pure text functions, so the page and its tests agree on what the list becomes.
 */

/** The players of the list, in order: each line's first name. */
export function rosterPlayers(roster: string): string[] {
  return roster
    .split(/\r?\n/)
    .map((line) => line.split("|")[0]!.trim())
    .filter((name) => name !== "");
}

/** The list with `name` on a line of its own at the end. */
export function addPlayer(roster: string, name: string): string {
  const body = roster.replace(/\s+$/, "");
  return body === "" ? name : `${body}\n${name}`;
}

/** The list with `alias` appended to `player`'s line (` | alias`); unchanged when no line is `player`'s. */
export function addAlias(roster: string, player: string, alias: string): string {
  const lines = roster.split(/\r?\n/);
  const at = lines.findIndex((line) => line.split("|")[0]!.trim() === player);
  if (at < 0) return roster;
  lines[at] = `${lines[at]!.replace(/\s+$/, "")} | ${alias}`;
  return lines.join("\n");
}
