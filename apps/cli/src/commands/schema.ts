import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '@parley/core';
import { Argument } from 'commander';
import type * as Config from '@parley/config';
import type { JsonSchemaKind } from '@parley/config';
import type { ProgramContext } from '../program/command-context.js';
import { packageSchemasDir } from '../program/package-info.js';

/**
 * The kinds `parley schema` prints: the keys of @parley/config's JSON_SCHEMA_KINDS (schema.test.ts
 * holds the two equal), written out so that registering the command builds no zod schema.
 */
export const SCHEMA_KINDS = ['suite', 'scenario', 'metric', 'baseline', 'calibration'] as const satisfies readonly JsonSchemaKind[];

interface SchemaFlags {
  suite?: string;
}

/**
 * Adds `parley schema <kind>`: prints the JSON Schema of a file format, the file shipped in the
 * package's schemas/. With `--suite DIR`, metric names are closed to the built-ins and that suite's
 * rubric metrics (the shipped file allows any name a rubric metric could have).
 */
export function register(program: Command, context: ProgramContext): void {
  program
    .command('schema')
    .description('print the JSON Schema of a file format, for editors and other tools')
    .addArgument(
      new Argument('<kind>', 'suite (parley.yaml), scenario, metric (metrics/*.yaml), baseline or calibration (human_labelled.yaml)').choices(
        SCHEMA_KINDS,
      ),
    )
    .option('--suite <dir>', "complete and check metric names against this suite's metrics/ folder")
    .action(async (kind: JsonSchemaKind, flags: SchemaFlags) => {
      const folder = packageSchemasDir();
      const file = folder === undefined ? undefined : join(folder, `${kind}.schema.json`);
      if (file === undefined || !existsSync(file)) {
        context.output.err(`parley schema: the package has no schemas/${kind}.schema.json (build it with npm run build)\n`);
        context.setExitCode(2);
        return;
      }
      let schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      if (flags.suite !== undefined) {
        const config = await import('@parley/config');
        const names = suiteMetricNames(resolve(context.cwd, flags.suite), config);
        schema = config.withSuiteMetricNames(schema, names.all, names.code);
      }
      context.output.out(`${JSON.stringify(schema, null, 2)}\n`);
      context.setExitCode(0);
    })
    .exitOverride();
}

/**
 * The names of a suite's metrics: the stems of its metrics folder's YAML files (a metric's name is
 * its file stem), and of those the metrics written in code (a top-level `kind: module` or `kind:
 * command` line; an editor aid, `parley validate` reads the files in full).
 */
function suiteMetricNames(suiteDir: string, { readConfigFile, SuiteSchema, METRIC_NAME_PATTERN }: typeof Config): { all: string[]; code: string[] } {
  if (!existsSync(join(suiteDir, 'parley.yaml'))) throw new ConfigError({ file: suiteDir, message: 'no parley.yaml in this folder: give the suite folder with --suite' });
  const suite = readConfigFile(join(suiteDir, 'parley.yaml'), SuiteSchema, { format: 'yaml' }).data;
  const folder = resolve(suiteDir, suite?.metrics ?? 'metrics');
  if (!existsSync(folder)) return { all: [], code: [] };
  const files = readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile() && ['.yaml', '.yml'].includes(extname(entry.name)))
    .map((entry) => ({ name: basename(entry.name, extname(entry.name)), file: join(folder, entry.name) }))
    .filter(({ name }) => METRIC_NAME_PATTERN.test(name))
    .sort((left, right) => left.name.localeCompare(right.name));
  const code = files.filter(({ file }) => /^kind:\s*["']?(module|command)["']?\s*(#.*)?$/m.test(readFileSync(file, 'utf8'))).map(({ name }) => name);
  return { all: files.map(({ name }) => name), code };
}
