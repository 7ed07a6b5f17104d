#!/usr/bin/env node
// Writes the JSON Schemas of Parley's file formats into apps/cli/schemas/<kind>.schema.json (shipped
// in the parley-eval package, referenced by `# yaml-language-server: $schema=…` lines and printed by
// `parley schema <kind>`). They are generated from the zod schemas of libs/config (compiled by
// `tsc -b`), the same ones `parley validate` checks with; expectations are checked per metric with
// the built-in metrics' own parameter schemas, and every key is described by docs/file-formats.md.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileJsonSchema, JSON_SCHEMA_KINDS, readSchemaDescriptions } from '../libs/config/dist/index.js';
import { metricParamSchemas } from '../libs/runner/dist/index.js';

const folder = new URL('../apps/cli/schemas/', import.meta.url);
const descriptions = readSchemaDescriptions(readFileSync(new URL('../docs/file-formats.md', import.meta.url), 'utf8'));
const metricParams = metricParamSchemas();
rmSync(folder, { recursive: true, force: true });
mkdirSync(folder, { recursive: true });
for (const kind of Object.keys(JSON_SCHEMA_KINDS)) {
  const schema = fileJsonSchema(kind, { metricParams, descriptions });
  writeFileSync(new URL(`${kind}.schema.json`, folder), `${JSON.stringify(schema, null, 2)}\n`);
}
