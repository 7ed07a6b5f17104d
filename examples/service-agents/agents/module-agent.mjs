// A `module` agent: Parley imports this file and calls `respond(body, { signal })` once per user
// turn with the default wire body. Return the reply text, or { reply, tool_calls?, state? }.
import { receptionist } from './receptionist.mjs';

export async function respond(body) {
  return receptionist(body);
}
