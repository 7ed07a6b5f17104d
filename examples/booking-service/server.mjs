#!/usr/bin/env node
// A demo HTTP booking agent: the kind of service Parley tests with an `http` agent. It keeps each
// tenant's conversations and bookings in that tenant's own PostgreSQL schema and asks an LLM
// through any OpenAI-compatible base URL what to say and which tool to use.
//
//   DATABASE_URL=postgres://… OPENAI_BASE_URL=http://127.0.0.1:8080/v1 node server.mjs [--port 8787]
//   DATABASE_URL=postgres://… node server.mjs --fake-llm     # also starts tools/fake-llm with suite/fake-llm.yaml
//
// Protocol: Parley's default wire format (SPEC §3.2.1): POST /chat with
// {conversation_id, tenant, scenario_id, turn, message, history} → {reply, tool_calls, state}.
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { connect, schemaOf, tenantExists } from './lib/tenant-db.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const { values: flags } = parseArgs({
  options: { port: { type: 'string', default: process.env.PORT ?? '8787' }, 'fake-llm': { type: 'boolean', default: false } },
});

const SYSTEM_PROMPT = `You are the booking assistant of Ratiba Spa. Offer free slots with check_availability,
book with create_booking only after the customer chose a slot, and answer questions about the
customer's bookings with list_bookings. Always quote the booking id you get back.`;
const SLOTS = ['10:00', '14:00'];
const TOOLS = [
  tool('check_availability', 'Free slots on a day', { day: { type: 'string' } }, ['day']),
  tool('create_booking', 'Book a slot for the customer', { slot: { type: 'string' }, customer: { type: 'string' } }, ['slot']),
  tool('list_bookings', "The customer's bookings", {}, []),
];
const MAX_TOOL_ROUNDS = 5;

let fakeLlm;
if (flags['fake-llm']) {
  const { startFakeLlm } = await import('@parley/fake-llm');
  fakeLlm = await startFakeLlm({ script: here('./suite/fake-llm.yaml') });
  process.env.OPENAI_BASE_URL = fakeLlm.openaiBaseUrl;
  console.log(`fake-llm listening on ${fakeLlm.url}`);
}
const llmBaseUrl = (process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1').replace(/\/$/, '');
const model = process.env.BOOKING_MODEL ?? 'booking-model';
const pool = connect();

const server = createServer((request, response) => {
  handle(request)
    .then(({ status, body }) => send(response, status, body))
    .catch((error) => send(response, 500, { error: error.message }));
});
server.listen(Number(flags.port), '127.0.0.1', () => {
  console.log(`booking-service listening on http://127.0.0.1:${server.address().port}`);
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.close();
    Promise.all([pool.end(), fakeLlm?.close()]).finally(() => process.exit(0));
  });
}

async function handle(request) {
  if (request.method !== 'POST' || request.url !== '/chat') return { status: 404, body: { error: 'POST /chat' } };
  let turn;
  try {
    turn = JSON.parse(await readBody(request));
  } catch {
    return { status: 400, body: { error: 'the body is not JSON' } };
  }
  const tenant = turn.tenant ?? request.headers['x-parley-tenant'];
  const conversation = turn.conversation_id ?? request.headers['x-parley-conversation-id'];
  if (typeof turn.message !== 'string' || typeof conversation !== 'string') {
    return { status: 400, body: { error: 'message and conversation_id are required' } };
  }
  const schema = schemaOf(tenant);
  if (!(await tenantExists(pool, tenant))) {
    return { status: 409, body: { error: `tenant ${tenant} has no schema: the isolation setup hook creates it` } };
  }
  return { status: 200, body: await answer(schema, conversation, turn.message) };
}

/** One user turn: the stored conversation plus this message go to the LLM; its tool calls run on the tenant's tables. */
async function answer(schema, conversation, message) {
  const stored = await pool.query(`SELECT role, content FROM ${schema}.messages WHERE conversation_id = $1 ORDER BY position`, [conversation]);
  await pool.query(`INSERT INTO ${schema}.messages (conversation_id, role, content) VALUES ($1, 'user', $2)`, [conversation, message]);
  const messages = [{ role: 'system', content: SYSTEM_PROMPT }, ...stored.rows, { role: 'user', content: message }];
  const toolCalls = [];
  let state = 'chatting';
  for (let round = 0; round < MAX_TOOL_ROUNDS; round += 1) {
    const reply = await complete(messages);
    const calls = reply.tool_calls ?? [];
    if (calls.length === 0) {
      const text = reply.content ?? '';
      await pool.query(`INSERT INTO ${schema}.messages (conversation_id, role, content) VALUES ($1, 'assistant', $2)`, [conversation, text]);
      return { reply: text, tool_calls: toolCalls, state };
    }
    messages.push({ role: 'assistant', content: reply.content ?? null, tool_calls: calls });
    for (const call of calls) {
      const args = JSON.parse(call.function.arguments || '{}');
      toolCalls.push({ name: call.function.name, args });
      const result = await runTool(schema, conversation, call.function.name, args);
      state = { check_availability: 'offering', create_booking: 'booked', list_bookings: 'listed' }[call.function.name] ?? state;
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
    }
  }
  throw new Error(`the model kept calling tools for ${MAX_TOOL_ROUNDS} rounds`);
}

async function runTool(schema, conversation, name, args) {
  const booked = (await pool.query(`SELECT id, slot FROM ${schema}.bookings ORDER BY id`)).rows;
  switch (name) {
    case 'check_availability':
      return { day: args.day, slots: SLOTS.filter((slot) => !booked.some((booking) => booking.slot === slot)) };
    case 'create_booking': {
      if (!SLOTS.includes(args.slot)) return { error: `no slot ${args.slot}; slots are ${SLOTS.join(', ')}` };
      if (booked.some((booking) => booking.slot === args.slot)) return { error: `slot ${args.slot} is already booked` };
      const inserted = await pool.query(
        `INSERT INTO ${schema}.bookings (conversation_id, slot, customer) VALUES ($1, $2, $3) RETURNING id`,
        [conversation, args.slot, args.customer ?? 'guest'],
      );
      return { booking_id: `BK-${inserted.rows[0].id}`, slot: args.slot, status: 'confirmed' };
    }
    case 'list_bookings':
      return { count: booked.length, bookings: booked.map((booking) => ({ booking_id: `BK-${booking.id}`, slot: booking.slot })) };
    default:
      return { error: `unknown tool ${name}` };
  }
}

async function complete(messages) {
  const response = await fetch(`${llmBaseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.OPENAI_API_KEY ?? 'not-needed'}` },
    body: JSON.stringify({ model, messages, tools: TOOLS, temperature: 0 }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`LLM answered HTTP ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text).choices[0].message;
}

function tool(name, description, properties, required) {
  return { type: 'function', function: { name, description, parameters: { type: 'object', properties, required } } };
}

function readBody(request) {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

function send(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}
