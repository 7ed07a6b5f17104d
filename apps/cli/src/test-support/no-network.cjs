// Preloaded with `node --require` in tests: any attempt to open a network connection or resolve
// a host name is written to PARLEY_NETWORK_LOG and fails, so a test can prove replay is offline.
const fs = require('node:fs');
const net = require('node:net');
const dns = require('node:dns');
const logFile = process.env.PARLEY_NETWORK_LOG;

function refuse(what) {
  if (logFile) fs.appendFileSync(logFile, `${what}\n`);
  throw new Error(`network access attempted in an offline test: ${what}`);
}

const originalConnect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function connect(...args) {
  const target = args[0];
  // Local IPC (pipes used by child processes) is not network access.
  if (typeof target === 'object' && target !== null && typeof target.path === 'string') return originalConnect.apply(this, args);
  if (typeof target === 'string' && !/^\d+$/.test(target)) return originalConnect.apply(this, args);
  return refuse(`connect ${JSON.stringify(target)}`);
};
dns.lookup = (host) => refuse(`dns.lookup ${host}`);
dns.promises.lookup = async (host) => refuse(`dns.promises.lookup ${host}`);
