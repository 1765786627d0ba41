// Fails the build when a RULES.md clause has no engine test titled with its id, when a test names a
// clause that does not exist, or when a test's title names no clause at all (STYLE.md, "Tests").
// Titles filled in by it.each ("%s: …") are checked through the clause ids their rows carry.
//
// The clause ids come from the rules text itself: ../shared/RULES.md beside the repository when it is
// there, else the copy committed in docs/rules/RULES.md (a CI clone has no ../shared). When both exist
// they must be identical. The engine's CLAUSES must list exactly the same ids, in the same order.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { CLAUSES } from "@forum-mafia/engine";

const root = resolve(import.meta.dirname, "..");
const shared = resolve(root, "../shared/RULES.md");
const copy = resolve(root, "docs/rules/RULES.md");
const failures: string[] = [];

/** Reads the rules text, and fails when the committed copy is stale. */
function rulesText(): { text: string; from: string } {
  const copyText = existsSync(copy) ? readFileSync(copy, "utf8") : null;
  if (!existsSync(shared)) {
    if (copyText === null) {
      console.error(`no rules text: neither ${shared} nor ${relative(root, copy)} exists`);
      process.exit(1);
    }
    return { text: copyText, from: relative(root, copy) };
  }
  const sharedText = readFileSync(shared, "utf8");
  if (copyText !== sharedText)
    failures.push(
      `${relative(root, copy)} is stale: it ${copyText === null ? "is missing" : "differs from ../shared/RULES.md"}. ` +
        `Refresh it from the repository root with: cp ../shared/RULES.md docs/rules/RULES.md`,
    );
  return { text: sharedText, from: "../shared/RULES.md" };
}

/**
 * The clause ids RULES.md defines, in its order. A clause is a top-level list item `- T3. …`; its
 * lettered parts are nested items `  - a) …` (T3a, M2b, N1c) or nested items with their own id
 * (`  - T3e. …`). Any other list item that starts like a clause id is an error, so that a change of
 * format cannot silently drop a clause.
 */
function parseClauses(text: string): string[] {
  const ids: string[] = [];
  let parent: string | null = null;
  for (const [i, line] of text.split("\n").entries()) {
    const top = /^- ([A-Z]\d{1,2}[a-z]?)\. /.exec(line);
    const own = /^\s+- ([A-Z]\d{1,2}[a-z]?)\. /.exec(line);
    const lettered = /^\s+- ([a-z])\) /.exec(line);
    if (top) {
      parent = top[1]!;
      ids.push(parent);
    } else if (own) {
      ids.push(own[1]!);
    } else if (lettered) {
      if (parent === null) failures.push(`RULES.md line ${i + 1}: a lettered item outside any clause`);
      else ids.push(parent + lettered[1]!);
    } else if (/^\s*[-*]\s*(\*\*)?[A-Z]\d{1,2}[a-z]?\b/.test(line)) {
      failures.push(`RULES.md line ${i + 1}: a clause marker this script cannot read: "${line.trim()}"`);
    } else if (/^#/.test(line)) {
      parent = null;
    }
  }
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) failures.push(`RULES.md defines ${id} twice`);
    seen.add(id);
  }
  // Every clause the text refers to must be one it defines: a reference to an unknown id means a
  // clause this parser did not see (or a typo in the rules).
  const undefinedRefs = new Set(
    [...text.matchAll(/\b([A-Z]\d{1,2}[a-z]?)\b/g)].map((m) => m[1]!).filter((id) => !seen.has(id)),
  );
  if (undefinedRefs.size > 0)
    failures.push(`RULES.md refers to clauses it does not define: ${[...undefinedRefs].join(", ")}`);
  return ids;
}

const { text, from } = rulesText();
const rules = parseClauses(text);
if (rules.length === 0) failures.push(`no clauses found in ${from}`);

// The engine's list must not drift from the rules.
const engine: readonly string[] = CLAUSES;
const notInEngine = rules.filter((c) => !engine.includes(c));
const notInRules = engine.filter((c) => !rules.includes(c));
if (notInEngine.length > 0)
  failures.push(
    `clauses in RULES.md missing from CLAUSES (packages/engine/src/clauses.ts): ${notInEngine.join(", ")}`,
  );
if (notInRules.length > 0)
  failures.push(
    `clauses in CLAUSES (packages/engine/src/clauses.ts) that RULES.md does not define: ${notInRules.join(", ")}`,
  );
if (notInEngine.length === 0 && notInRules.length === 0 && engine.join() !== rules.join())
  failures.push(
    `CLAUSES (packages/engine/src/clauses.ts) is not in RULES.md's order; RULES.md has: ${rules.join(", ")}`,
  );

// Anything shaped like a clause id counts, so that a title naming a clause RULES.md lacks is reported
// as such, not as a title naming no clause.
const CLAUSE_ID = /\b([A-Z]\d{1,2}[a-z]?)(?=[:,\s)/]|$)/g;
const ROW = /["'`]([A-Z]\d{1,2}[a-z]?)["'`]/g;
const dir = join(root, "packages/engine/test");
const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".test.ts"));
const known = new Set<string>(rules);
const named = new Set<string>();
const unknown = new Set<string>();
const unnamed: string[] = [];
let titles = 0;
for (const f of files) {
  const source = readFileSync(join(dir, f), "utf8");
  // Test titles, and string literals that are a clause id (it.each rows such as ["T4", …]).
  const found = [
    ...[...source.matchAll(/\b(it|test|describe)(?:\.each\([^)]*\))?\(\s*(["'`])(.*?)\2/gs)].map((m) => ({
      kind: m[1]!,
      title: m[3]!,
    })),
    ...[...source.matchAll(ROW)].map((m) => ({ kind: "row", title: m[1]! })),
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
const missing = rules.filter((c) => !named.has(c));
if (unknown.size > 0)
  failures.push(`tests name clauses that RULES.md does not have: ${[...unknown].join(", ")}`);
if (missing.length > 0) failures.push(`clauses without a test: ${missing.join(", ")}`);
if (unnamed.length > 0) failures.push(`tests whose title names no clause:\n  ${unnamed.join("\n  ")}`);
if (failures.length > 0) {
  for (const f of failures) console.error(f);
  process.exit(1);
}
console.log(
  `every one of ${rules.length} clauses of ${from} has a test, and every test names its clause (${titles} titles read); CLAUSES matches`,
);
