// Fails the build when a RULES.md clause has no engine test titled with its id, or when a test names a
// clause that does not exist (STYLE.md, "Tests").
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { CLAUSES } from "@forum-mafia/engine";

const dir = join(import.meta.dirname, "../packages/engine/test");
const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".test.ts"));
const titles: string[] = [];
for (const f of files) {
  const text = readFileSync(join(dir, f), "utf8");
  for (const m of text.matchAll(/\b(?:it|test|describe)(?:\.each\([^)]*\))?\(\s*(["'`])(.*?)\1/gs))
    titles.push(m[2]!);
}
const known = new Set<string>(CLAUSES);
const named = new Set<string>();
const unknown = new Set<string>();
for (const title of titles) {
  for (const m of title.matchAll(/\b([SGRVPMNTOAWF]\d{1,2}[a-e]?)(?=[:,\s)/]|$)/g)) {
    if (known.has(m[1]!)) named.add(m[1]!);
    else unknown.add(m[1]!);
  }
}
const missing = CLAUSES.filter((c) => !named.has(c));
if (unknown.size > 0)
  console.error(`tests name clauses that RULES.md does not have: ${[...unknown].join(", ")}`);
if (missing.length > 0) console.error(`clauses without a test: ${missing.join(", ")}`);
if (missing.length > 0 || unknown.size > 0) process.exit(1);
console.log(`every one of ${CLAUSES.length} clauses has a test (${titles.length} test titles read)`);
