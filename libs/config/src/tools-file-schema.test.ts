import { describe, expect, it } from 'vitest';
import { parseConfigText } from './config-file.js';
import { whereIs } from './test-support/suite-fixture.js';
import { ToolsFileSchema } from './tools-file-schema.js';

function messages(text: string): string[] {
  return parseConfigText(text, 'tools.json', ToolsFileSchema).issues.map((issue) => `${issue.line}:${issue.column} ${issue.message}`);
}

describe('ToolsFileSchema', () => {
  it('normalises the plain and the OpenAI forms to ToolDefinition', () => {
    const text = JSON.stringify([
      { name: 'check_availability', description: 'Free slots', parameters: { type: 'object', properties: { day: { type: 'string' } } } },
      { type: 'function', function: { name: 'create_booking', parameters: { type: 'object', properties: {} }, strict: true } },
      { name: 'ping' },
    ]);
    const parsed = parseConfigText(text, 'tools.json', ToolsFileSchema);
    expect(parsed.issues).toEqual([]);
    expect(parsed.data).toEqual([
      { name: 'check_availability', description: 'Free slots', parameters: { type: 'object', properties: { day: { type: 'string' } } } },
      { name: 'create_booking', parameters: { type: 'object', properties: {} } },
      { name: 'ping', parameters: { type: 'object', properties: {} } },
    ]);
  });

  it('locates problems inside the JSON file', () => {
    const text = '[\n  { "type": "function", "function": { "nme": "x" } }\n]\n';
    expect(messages(text)).toEqual([
      `${whereIs(text, '{ "nme"')} missing required key "name"`,
      `${whereIs(text, '"nme"')} unknown key "nme" (did you mean "name"?)`,
    ]);
  });

  it('refuses duplicate tool names and bad names', () => {
    const text = '[\n  { "name": "a" },\n  { "type": "function", "function": { "name": "a" } },\n  { "name": "has space" }\n]\n';
    expect(messages(text)).toEqual([
      `${whereIs(text, '"a"', 2)} a second tool named "a"`,
      `${whereIs(text, '"has space"')} "name" is invalid: tool names use letters, digits, _ and -, at most 64 characters (got "has space")`,
    ]);
    const twice = '[\n  { "name": "a" },\n  { "type": "function", "function": { "name": "a" } }\n]\n';
    expect(messages(twice)).toEqual([`${whereIs(twice, '"a"', 2)} a second tool named "a"`]);
  });

  it('requires a list', () => {
    expect(messages('{ "name": "a" }')).toEqual(['1:1 the file must be a list, got a mapping']);
  });
});
