import type { Command } from 'commander';
import { Argument } from 'commander';
import { fileJsonSchema, JSON_SCHEMA_KINDS, type JsonSchemaKind } from '@parley/config';
import type { ProgramContext } from '../program/command-context.js';

/** Adds `parley schema <kind>`: prints the JSON Schema of a file format (the files shipped in the package's schemas/). */
export function register(program: Command, context: ProgramContext): void {
  program
    .command('schema')
    .description('print the JSON Schema of a file format, for editors and other tools')
    .addArgument(
      new Argument('<kind>', 'suite (parley.yaml), scenario, metric (metrics/*.yaml), baseline or calibration (human_labelled.yaml)').choices(
        Object.keys(JSON_SCHEMA_KINDS),
      ),
    )
    .action((kind: JsonSchemaKind) => {
      context.output.out(`${JSON.stringify(fileJsonSchema(kind), null, 2)}\n`);
      context.setExitCode(0);
    })
    .exitOverride();
}
