/** Reading request bodies and writing JSON answers over node:http. */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface ParsedBody {
  /** Parsed JSON, the raw text when it is not JSON, null when empty. */
  value: unknown;
  isJson: boolean;
}

export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

/** Keeps a body that is not JSON as text, so the log shows exactly what a broken client sent. */
export function parseBody(rawBody: string): ParsedBody {
  if (rawBody === '') return { value: null, isJson: false };
  try {
    return { value: JSON.parse(rawBody), isJson: true };
  } catch {
    return { value: rawBody, isJson: false };
  }
}

export function sendJson(response: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(payload);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  response.end(text);
}
