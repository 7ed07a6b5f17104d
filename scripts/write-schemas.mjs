#!/usr/bin/env node
// Writes the JSON Schemas of Parley's file formats into apps/cli/schemas/<kind>.schema.json (shipped
// in the parley-eval package, referenced by `# yaml-language-server: $schema=…` lines). They are
// generated from the zod schemas of libs/config (compiled by `tsc -b`), the same ones `parley
// validate` checks with, and printed by `parley schema <kind>`.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileJsonSchema, JSON_SCHEMA_KINDS } from '../libs/config/dist/index.js';

const folder = new URL('../apps/cli/schemas/', import.meta.url);
rmSync(folder, { recursive: true, force: true });
mkdirSync(folder, { recursive: true });
for (const kind of Object.keys(JSON_SCHEMA_KINDS)) {
  writeFileSync(new URL(`${kind}.schema.json`, folder), `${JSON.stringify(fileJsonSchema(kind), null, 2)}\n`);
}
