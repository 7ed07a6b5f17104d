/**
 * Resolves once `check` holds, checking every 10 ms: tests wait on a condition (a request reached the
 * fake, a file was written), never on a fixed sleep. The interval leaves the CPU to the process waited
 * on, which a check on every turn of the event loop would compete with on a busy machine.
 */
export async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}
