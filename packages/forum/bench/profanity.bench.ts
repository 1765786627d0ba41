/**
 * `npm run bench:profanity` (issue 31): how long the G5 checker takes on a post of the largest size the
 * thread takes (10,000 characters), written to be slow: masks in every word (ы**ы), one 10,000-letter word,
 * letters spaced out, Latin words, quotes. The checker runs on the event loop for every post and message,
 * so none of them may stall it. The first check of each (its words new to the checker), then the median of
 * 15 more, and that as a ratio to an ordinary post of the same size measured in the same run (2 noisy
 * cores: ratios, not absolute targets).
 */
import { checkMessage } from "../src/index.ts";

const SIZE = 10_000;
const A = "абвгдежзийклмнопрстуфхцчшщъыьэюя";
const fill = (word: (i: number) => string, sep = " "): string => {
  let out = "";
  for (let i = 0; out.length < SIZE; i++) out += (i ? sep : "") + word(i);
  return out.slice(0, SIZE);
};

const CASES: Record<string, string> = {
  "ordinary post (baseline)": fill((i) => ["Голосую", "за", "Аню,", "она", "мафия,", "это", "видно"][i % 7]!),
  "masks in every word (ы**ы)": fill(() => "ы**ы"),
  "two masks, letters varied": fill((i) => `${A[i % 32]}**${A[(i * 7) % 32]}`),
  "a core and a mask (х*йа*)": fill((i) => `х*й${A[i % 32]}*`),
  "one 10,000-letter word": fill((i) => A[i % 32]!, ""),
  "letters spaced out": fill((i) => A[i % 32]!),
  "Latin words (translit)": fill((i) => `blyat${i}`),
  "insults aimed at someone": fill(() => "ты, дебил,"),
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const times: Record<string, number> = {};
const cold: Record<string, number> = {};
for (const [name, text] of Object.entries(CASES)) {
  // The first check of a text reads every word; the checker keeps its judgements of words (a thread
  // repeats them), so the runs after it show what a thread's later posts cost.
  const t0 = performance.now();
  checkMessage(text);
  cold[name] = performance.now() - t0;
  const runs: number[] = [];
  for (let i = 0; i < 15; i++) {
    const t0 = performance.now();
    checkMessage(text);
    runs.push(performance.now() - t0);
  }
  times[name] = median(runs);
}
const base = times["ordinary post (baseline)"]!;
console.log(
  `G5 checker on ${SIZE.toLocaleString("en")}-character posts: the first check, then the median of 15:`,
);
for (const [name, ms] of Object.entries(times))
  console.log(
    `  ${name.padEnd(30)} first ${cold[name]!.toFixed(1).padStart(6)} ms   then ${ms.toFixed(1).padStart(6)} ms  ×${(ms / base).toFixed(1)}`,
  );
