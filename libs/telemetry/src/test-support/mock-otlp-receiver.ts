import { createRequire } from 'node:module';

/** The parts of @elastic/mockotlpserver (which ships no types) the export tests use. */
interface MockOtlpServer {
  httpUrl: URL | null;
  start(): Promise<void>;
  close(): Promise<void>;
}
type MockOtlpServerClass = new (options: {
  logLevel?: string;
  services?: string[];
  httpHostname?: string;
  httpPort?: number;
  /** Each decoded ExportTraceServiceRequest received on /v1/traces (JSON as sent, protobuf as protobufjs decodes it). */
  onTrace?: (request: unknown) => void;
  /** Each HTTP request received, before it is decoded. */
  onRequest?: (request: { path: string; headers: Record<string, string> }) => void;
}) => MockOtlpServer;

export interface MockOtlpReceiver {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  base: string;
  /** Every decoded trace request, in order. */
  received: unknown[];
  /** Every request: path and content type. */
  requests: Array<{ path: string; contentType: string | undefined }>;
  close(): Promise<void>;
}

/**
 * Elastic's mock OTLP receiver on a free port of 127.0.0.1 (HTTP only): it decodes OTLP/HTTP in
 * both encodings with its own copy of the official .proto files, and only on the signal paths
 * (`/v1/traces`); a request to another path is answered 200 and decoded as nothing.
 */
export async function startMockOtlpReceiver(): Promise<MockOtlpReceiver> {
  const { MockOtlpServer } = createRequire(import.meta.url)('@elastic/mockotlpserver') as { MockOtlpServer: MockOtlpServerClass };
  const received: unknown[] = [];
  const requests: MockOtlpReceiver['requests'] = [];
  const server = new MockOtlpServer({
    logLevel: 'warn',
    services: ['http'],
    httpHostname: '127.0.0.1',
    httpPort: 0,
    onRequest: (request) => requests.push({ path: request.path, contentType: request.headers['content-type'] }),
    onTrace: (request) => received.push(request),
  });
  await server.start();
  return { base: server.httpUrl!.href.replace(/\/$/, ''), received, requests, close: () => server.close() };
}
