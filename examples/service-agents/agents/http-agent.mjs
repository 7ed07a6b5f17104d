#!/usr/bin/env node
// An `http` agent: one POST per user turn with the default wire body, answered with
// { reply, tool_calls, state }. Start it, then run the suite with ECHO_HTTP_URL set:
//   node agents/http-agent.mjs --port 8790 &  ECHO_HTTP_URL=http://127.0.0.1:8790 parley run . --mode record
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { receptionist } from './receptionist.mjs';

const { values } = parseArgs({ options: { port: { type: 'string', default: '8790' } } });
const server = createServer((request, response) => {
  let text = '';
  request.setEncoding('utf8');
  request.on('data', (chunk) => (text += chunk));
  request.on('end', () => {
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not JSON' }));
      return;
    }
    // Session ids also come as headers, for services that route on them.
    const tenant = request.headers['x-parley-tenant'];
    response.writeHead(200, { 'content-type': 'application/json', 'x-tenant-seen': String(tenant) });
    response.end(JSON.stringify(receptionist(body)));
  });
});
server.listen(Number(values.port), '127.0.0.1', () => console.log(`http agent listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('SIGINT', () => server.close(() => process.exit(0)));
