// The server's shape (issue 29): no source file in packages/server/src longer than 500 lines, and no class
// with more than 25 methods (constructor and accessors count), so that no module grows back into a heap of
// concerns. Run by `npm run lint`.
//
//   npx tsx tools/server-shape.ts [folder …]      (default: packages/server/src)
//
// Exits 1 naming each file or class over its limit.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

export const MAX_LINES = 500;
export const MAX_METHODS = 25;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** What in one file's text is over the limits, in words. */
export function overLimits(file: string, text: string): string[] {
  const out: string[] = [];
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  if (lines > MAX_LINES) out.push(`${file}: ${lines} lines (at most ${MAX_LINES})`);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): void => {
    if (ts.isClassLike(node)) {
      const methods = node.members.filter(
        (m) =>
          ts.isMethodDeclaration(m) ||
          ts.isGetAccessorDeclaration(m) ||
          ts.isSetAccessorDeclaration(m) ||
          ts.isConstructorDeclaration(m),
      ).length;
      if (methods > MAX_METHODS)
        out.push(
          `${file}: class ${node.name?.text ?? "(anonymous)"} has ${methods} methods (at most ${MAX_METHODS})`,
        );
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, "/"));
if (isMain) {
  const dirs = process.argv.length > 2 ? process.argv.slice(2) : ["packages/server/src"];
  const found = dirs
    .flatMap((d) => sources(d))
    .flatMap((f) => overLimits(relative(".", f), readFileSync(f, "utf8")));
  for (const line of found) console.error(line);
  if (found.length > 0) process.exit(1);
  console.log(`server shape: every file ≤ ${MAX_LINES} lines, every class ≤ ${MAX_METHODS} methods`);
}
