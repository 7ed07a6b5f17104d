#!/usr/bin/env node
// Type-checks one workspace package, tests included, the way `npm run typecheck` checks all of
// them: with tsconfig.typecheck.json (sibling packages resolve to their sources). Only the
// package's own files are reported, so each package's result can be cached on its own inputs.
// Usage: node scripts/nx/typecheck-project.mjs libs/core
import ts from 'typescript';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const workspaceRoot = fileURLToPath(new URL('../..', import.meta.url));
const projectRoot = resolve(workspaceRoot, process.argv[2] ?? '.') + sep;

const configPath = resolve(workspaceRoot, 'tsconfig.typecheck.json');
const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => report([d]) });
const rootNames = parsed.fileNames.filter((file) => resolve(file).startsWith(projectRoot));
const program = ts.createProgram({ rootNames, options: parsed.options, projectReferences: parsed.projectReferences });

const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
for (const file of rootNames) {
  const source = program.getSourceFile(file);
  if (source) diagnostics.push(...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source));
}
report(diagnostics);
console.log(`${process.argv[2]}: ${rootNames.length} files type-checked`);

function report(found) {
  if (found.length === 0) return;
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => workspaceRoot, getNewLine: () => '\n' };
  process.stderr.write(ts.formatDiagnosticsWithColorAndContext(found, host));
  process.exit(1);
}
