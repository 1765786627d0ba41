#!/usr/bin/env node
// `npm start` until the game server exists: replays a bundled sample game and prints its results the
// way a GM posts them (A1–A3), with the private results (A2) under their recipients.
import { readFileSync } from "node:fs";
import {
  ReplayError,
  dayAnnouncement,
  nightAnnouncement,
  privateResults,
  replayMatch,
  roleName,
  seedCommitment,
  type DayOutcome,
  type Lang,
  type NightOutcome,
} from "../src/index.ts";

const [file, langArg] = process.argv.slice(2);
const lang: Lang = langArg === "en" ? "en" : "ru";
try {
  const input: unknown = JSON.parse(readFileSync(file ?? "", "utf8"));
  const match = replayMatch(input);
  const seed = match.setup.seed ?? undefined;
  if (seed !== undefined) console.log(`SHA-256 (F1): ${seedCommitment(seed)}\n`);
  for (const { outcome, players: table } of match.outcomes) {
    const post =
      outcome.phase.kind === "night"
        ? nightAnnouncement(outcome as NightOutcome, table, lang)
        : dayAnnouncement(outcome as DayOutcome, table, lang);
    console.log(`[b]${post.title}[/b]`);
    for (const line of post.lines) console.log(line);
    if (outcome.phase.kind === "night")
      for (const r of privateResults(outcome as NightOutcome, table, lang))
        console.log(`  → ${r.recipients.map((s) => table[s]!.name).join(", ")}: ${r.text}`);
    console.log("");
  }
  if (match.state.winner !== null) {
    // R3: when the game ends, every role is published.
    console.log(lang === "ru" ? "[b]Роли[/b]" : "[b]Roles[/b]");
    for (const p of match.state.players) console.log(`${p.name} — ${roleName(p.role, lang)}`);
    console.log("");
  }
  console.log(`${match.state.players.length} players; replay file: ${file}`);
} catch (e) {
  process.stderr.write(`${e instanceof ReplayError || e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
}
