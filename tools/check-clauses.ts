// Fails the build when a RULES.md clause has no engine test titled with its id, when a test names a
// clause that does not exist, or when a test's title names no clause at all (STYLE.md, "Tests").
// Titles filled in by it.each ("%s: …") are checked through the clause ids their rows carry.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { CLAUSES } from "@forum-mafia/engine";

const CLAUSE_ID = /\b([SGRVPMNTOAWF]\d{1,2}[a-e]?)(?=[:,\s)/]|$)/g;
const dir = join(import.meta.dirname, "../packages/engine/test");
const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".test.ts"));
const known = new Set<string>(CLAUSES);
const named = new Set<string>();
const unknown = new Set<string>();
const unnamed: string[] = [];
let titles = 0;
for (const f of files) {
  const text = readFileSync(join(dir, f), "utf8");
  // Test titles, and string literals that start with a clause id (it.each rows such as ["T4", …]).
  const found = [
    ...[...text.matchAll(/\b(it|test|describe)(?:\.each\([^)]*\))?\(\s*(["'`])(.*?)\2/gs)].map((m) => ({
      kind: m[1]!,
      title: m[3]!,
    })),
    ...[...text.matchAll(/["'`]([SGRVPMNTOAWF]\d{1,2}[a-e]?)["'`]/g)].map((m) => ({
      kind: "row",
      title: m[1]!,
    })),
  ];
  for (const { kind, title } of found) {
    if (kind !== "row") titles++;
    const ids = [...title.matchAll(CLAUSE_ID)].map((m) => m[1]!);
    for (const id of ids) (known.has(id) ? named : unknown).add(id);
    if (
      (kind === "it" || kind === "test") &&
      ids.length === 0 &&
      !title.includes("%s") &&
      !title.includes("$")
    )
      unnamed.push(`${f}: "${title}"`);
  }
}
const missing = CLAUSES.filter((c) => !named.has(c));
if (unknown.size > 0)
  console.error(`tests name clauses that RULES.md does not have: ${[...unknown].join(", ")}`);
if (missing.length > 0) console.error(`clauses without a test: ${missing.join(", ")}`);
if (unnamed.length > 0) console.error(`tests whose title names no clause:\n  ${unnamed.join("\n  ")}`);
if (missing.length > 0 || unknown.size > 0 || unnamed.length > 0) process.exit(1);
console.log(
  `every one of ${CLAUSES.length} clauses has a test, and every test names its clause (${titles} titles read)`,
);
