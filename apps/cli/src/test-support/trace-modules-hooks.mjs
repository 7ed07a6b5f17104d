import { appendFileSync } from 'node:fs';

let logFile;

export function initialize(data) {
  logFile = data.logFile;
}

export async function load(url, context, nextLoad) {
  appendFileSync(logFile, `${url}\n`);
  return nextLoad(url, context);
}
