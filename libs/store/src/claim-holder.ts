import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * A name for this process's claims on conversations and outbox items (MonitorStore.claim,
 * OutboxStore.claimPending): the host and pid say who held a claim; the random part keeps two
 * runs in one process apart.
 */
export function claimHolder(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * Whether a claim's holder is a process of this machine that is gone (killed, crashed): its claims
 * are taken over at once instead of after their lease. A holder on another machine, or one whose
 * process is alive (or whose pid was reused), keeps its claims until the lease is past.
 */
export function abandonedHere(holder: string): boolean {
  const [host, pidText] = holder.split(':');
  const pid = Number(pidText);
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
