// Lists the import cycles between a folder's modules that run when the modules load (issue 29): a cycle
// of value imports means one module of it starts before another has finished, and a value read at load
// time (a table, a class extended) is then undefined. Type-only imports are erased and do not count:
// `import type …`, `export type … from`, and (with verbatimModuleSyntax) nothing else — an import whose
// names are all `type` still loads its module (`import {} from …`), so it counts. Dynamic `import()` runs
// later, not at load time, and does not count.
//
//   npx tsx tools/value-cycles.ts [folder …]      (default: packages/server/src)
//
// Exits 1 when there is a cycle, printing each one as a path of files.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) out.push(resolve(path));
  }
  return out;
}

/** Whether a declaration loads its module at run time. */
function loads(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isImportDeclaration(node)) return !node.importClause?.isTypeOnly;
  return !node.isTypeOnly;
}

/** The modules a file loads when it loads, among `known`. */
function valueImports(file: string, known: ReadonlySet<string>): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  for (const node of source.statements) {
    if (!ts.isImportDeclaration(node) && !ts.isExportDeclaration(node)) continue;
    const spec = node.moduleSpecifier;
    if (!spec || !ts.isStringLiteral(spec) || !spec.text.startsWith(".") || !loads(node)) continue;
    const target = resolve(dirname(file), spec.text);
    if (known.has(target)) out.push(target);
  }
  return out;
}

/** Tarjan's strongly connected components with more than one module (or a module importing itself). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** One shortest cycle through `start` inside its component, for the message. */
function pathThrough(
  start: string,
  members: ReadonlySet<string>,
  graph: ReadonlyMap<string, readonly string[]>,
): string[] {
  const from = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u = v; u !== start; u = from.get(u)!) path.splice(1, 0, u);
        return [...path, start];
      }
      if (!from.has(w)) {
        from.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

const folders = process.argv.length > 2 ? process.argv.slice(2) : ["packages/server/src"];
let count = 0;
for (const folder of folders) {
  const files = sources(folder);
  const known = new Set(files);
  const graph = new Map(files.map((f) => [f, valueImports(f, known)] as const));
  for (const component of cycles(graph)) {
    count++;
    const members = new Set(component);
    const first = [...component].sort()[0]!;
    const path = pathThrough(first, members, graph).map((f) => relative(process.cwd(), f));
    console.log(`value import cycle (${component.length} modules): ${path.join(" → ")}`);
  }
}
if (count > 0) process.exitCode = 1;
else console.log(`no value import cycle in ${folders.join(", ")}`);
