import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import ts from 'typescript';

/** One import of a project file by another, both as paths relative to the project root (`src/http/app.ts`). */
export interface ProjectImport {
  from: string;
  to: string;
}

/** The project root: two folders above test/helpers/. */
export const PROJECT_ROOT = join(import.meta.dirname, '..', '..');

/** Every .ts file under the given top-level folders, relative to the project root, in name order. */
export function projectFiles(folders: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(PROJECT_ROOT, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) files.push(path);
    }
  };
  for (const folder of folders) walk(folder);
  return files.sort();
}

/**
 * Every relative import of the files (static, `import type`, `export … from` and `import()`), read by the TypeScript
 * compiler's own pre-processor; a specifier's `.js` is the `.ts` file tsc compiles to it.
 * @example projectImports(['src/http/app.ts']) // [{ from: 'src/http/app.ts', to: 'src/access/access-gate.ts' }, …]
 */
export function projectImports(files: readonly string[]): ProjectImport[] {
  return files.flatMap((from) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(PROJECT_ROOT, from), 'utf8'), true, true);
    return importedFiles
      .map((i) => i.fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => ({ from, to: normalize(join(dirname(from), specifier.replace(/\.js$/, '.ts'))) }));
  });
}

/** One import of a package by a project file: `{ from: 'src/http/app.ts', to: 'fastify' }`. */
export type PackageImport = ProjectImport;

/**
 * Every import of a package (not relative, not a `node:` built-in) by the files, read as {@link projectImports} reads.
 * @example packageImports(['src/http/app.ts']) // [{ from: 'src/http/app.ts', to: 'fastify' }, …]
 */
export function packageImports(files: readonly string[]): PackageImport[] {
  return files.flatMap((from) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(PROJECT_ROOT, from), 'utf8'), true, true);
    return importedFiles
      .map((i) => i.fileName)
      .filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:'))
      .map((to) => ({ from, to }));
  });
}

/** Imports whose target is no file of the project (the graph would silently miss them). */
export function unresolvedImports(imports: readonly ProjectImport[]): ProjectImport[] {
  return imports.filter((i) => !existsSync(join(PROJECT_ROOT, i.to)));
}

/**
 * The import cycles: each strongly connected group of more than one node (Tarjan), nodes sorted.
 * @example importCycles([{ from: 'a.ts', to: 'b.ts' }, { from: 'b.ts', to: 'a.ts' }]) // [['a.ts', 'b.ts']]
 */
export function importCycles(imports: readonly ProjectImport[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of imports) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) cycles.push(group.sort());
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles;
}

/** `a.ts → b.ts` lines for a readable failure message. */
export const describeImports = (imports: readonly ProjectImport[]): string[] =>
  imports.map((i) => `${i.from} → ${i.to}`);
