import { createServer, type Socket } from 'node:net';

/**
 * A server that takes every connection and never answers: what a hung Langfuse or collector looks
 * like to a client. `connections()` counts those it took; `close()` drops the held connections and stops listening.
 */
export async function silentServer(): Promise<{ url: string; connections(): number; close(): Promise<void> }> {
  const held: Socket[] = [];
  const server = createServer((socket) => void held.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    /** How many connections it took (and holds). */
    connections: () => held.length,
    async close() {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
