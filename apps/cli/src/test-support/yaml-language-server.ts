import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** One diagnostic the language server published for a document (LSP lines and columns are 0-based). */
export interface LanguageServerDiagnostic {
  line: number;
  column: number;
  message: string;
  severity: number;
}

interface Message {
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { message: string };
}

/**
 * The real `yaml-language-server` (the one editors run: VS Code's YAML extension, Neovim, Helix),
 * spoken to over stdio with the Language Server Protocol: open a document, wait for the
 * diagnostics it publishes. Schemas come from the documents' own `# yaml-language-server:
 * $schema=…` lines, read from disk as an editor would.
 */
export class YamlLanguageServer {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private version = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly waiting = new Map<string, { after: number; resolve: (diagnostics: LanguageServerDiagnostic[]) => void }>();

  private constructor() {
    const bin = createRequire(import.meta.url).resolve('yaml-language-server/bin/yaml-language-server');
    this.child = spawn(process.execPath, [bin, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    this.child.stderr.resume();
  }

  static async start(): Promise<YamlLanguageServer> {
    const server = new YamlLanguageServer();
    await server.request('initialize', { processId: process.pid, rootUri: null, capabilities: {}, workspaceFolders: null });
    server.notify('initialized', {});
    server.notify('workspace/didChangeConfiguration', {
      settings: { yaml: { validate: true, completion: true, hover: true, schemaStore: { enable: false }, schemas: {} } },
    });
    return server;
  }

  /** The diagnostics of a file as it is on disk (opened, or its text replaced when open already). */
  async diagnose(path: string, text = readFileSync(path, 'utf8')): Promise<LanguageServerDiagnostic[]> {
    const uri = pathToFileURL(path).href;
    const version = this.version++;
    const published = new Promise<LanguageServerDiagnostic[]>((resolve) => this.waiting.set(uri, { after: version, resolve }));
    this.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version, text } });
    const diagnostics = await published;
    this.notify('textDocument/didClose', { textDocument: { uri } });
    return diagnostics;
  }

  /** What the server would complete at a position (0-based line and character). */
  async complete(path: string, text: string, line: number, character: number): Promise<string[]> {
    const uri = pathToFileURL(path).href;
    this.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: this.version++, text } });
    const result = (await this.request('textDocument/completion', { textDocument: { uri }, position: { line, character } })) as
      | { items?: Array<{ label: string }> }
      | Array<{ label: string }>
      | null;
    this.notify('textDocument/didClose', { textDocument: { uri } });
    const items = Array.isArray(result) ? result : (result?.items ?? []);
    return items.map((item) => item.label);
  }

  /** The hover text at a position (0-based), as markdown. */
  async hover(path: string, text: string, line: number, character: number): Promise<string> {
    const uri = pathToFileURL(path).href;
    this.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: this.version++, text } });
    const result = (await this.request('textDocument/hover', { textDocument: { uri }, position: { line, character } })) as {
      contents?: { value?: string } | string;
    } | null;
    this.notify('textDocument/didClose', { textDocument: { uri } });
    const contents = result?.contents;
    return typeof contents === 'string' ? contents : (contents?.value ?? '');
  }

  async stop(): Promise<void> {
    await this.request('shutdown', null).catch(() => undefined);
    this.notify('exit', null);
    if (this.child.exitCode === null) await new Promise((resolve) => this.child.once('exit', resolve));
  }

  private request(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    const answer = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.send({ id, method, params });
    return answer;
  }

  private notify(method: string, params: unknown): void {
    this.send({ method, params });
  }

  private send(message: Message): void {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
    this.child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString('ascii'))?.[1]);
      if (this.buffer.length < headerEnd + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8')) as Message;
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      this.handle(message);
    }
  }

  private handle(message: Message): void {
    if (message.id !== undefined && message.method === undefined) {
      const pending = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) pending?.reject(new Error(message.error.message));
      else pending?.resolve(message.result);
      return;
    }
    if (message.id !== undefined && message.method !== undefined) {
      // Requests from the server (configuration, capability registration): answer with defaults.
      const result = message.method === 'workspace/configuration' ? [{ validate: true, completion: true, hover: true }] : null;
      this.send({ id: message.id, result });
      return;
    }
    if (message.method === 'textDocument/publishDiagnostics') {
      const params = message.params as {
        uri: string;
        version?: number;
        diagnostics: Array<{ range: { start: { line: number; character: number } }; message: string; severity: number }>;
      };
      const waiter = this.waiting.get(params.uri);
      if (waiter === undefined || (params.version !== undefined && params.version < waiter.after)) return;
      this.waiting.delete(params.uri);
      waiter.resolve(
        params.diagnostics.map((diagnostic) => ({
          line: diagnostic.range.start.line,
          column: diagnostic.range.start.character,
          message: diagnostic.message,
          severity: diagnostic.severity,
        })),
      );
    }
  }
}
