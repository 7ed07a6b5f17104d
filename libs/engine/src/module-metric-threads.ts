import { ProviderError } from '@parley/providers';
import { moduleAgent, type ModuleAgentTransport } from './module-agent.js';

/** What a module metric's thread is started from (the `kind: module` part of a CodeMetricProgram). */
export interface ModuleMetricProgram {
  name: string;
  file: string;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
}

interface MetricThread {
  transport: ModuleAgentTransport | undefined;
  /** Settles when the metric's last evaluation asked for has ended: the next one waits for it. */
  tail: Promise<unknown>;
}

/**
 * The worker threads of a run's module metrics: one per metric, started on its first evaluation
 * and kept for the run's others (every scenario, every attempt), so a metric's module is loaded
 * (and a TypeScript one compiled) once per run, not once per evaluation. A thread takes one
 * evaluation at a time (the timeout counts from when it is sent, not while it waits its turn).
 * A thread that crashed, timed out or was stopped by an abort is replaced on the metric's next
 * evaluation, so one bad evaluation never poisons the next. `close` ends every thread (the run's
 * end, also after Ctrl-C or an error): an idle thread would otherwise keep the process alive.
 *
 * The module's own state (its variables) lives as long as its thread: a metric sees it carried
 * from one evaluation to the next, and must not count on it (a replaced thread starts afresh).
 */
export class ModuleMetricThreads {
  private readonly threads = new Map<string, MetricThread>();
  private closed = false;

  /** Sends one evaluation's input to the metric's thread (starting it when it has none that is open) and returns the raw answer. */
  evaluate(program: ModuleMetricProgram, input: unknown, signal?: AbortSignal): Promise<unknown> {
    const key = `${program.name}\u0000${program.file}`;
    let thread = this.threads.get(key);
    if (thread === undefined) {
      thread = { transport: undefined, tail: Promise.resolve() };
      this.threads.set(key, thread);
    }
    const slot = thread;
    const answer = slot.tail.then(() => this.send(slot, program, input, signal));
    slot.tail = answer.then(
      () => undefined,
      () => undefined,
    );
    return answer;
  }

  /** Ends every thread; evaluations asked for afterwards are refused. Safe to call more than once. */
  async close(): Promise<void> {
    this.closed = true;
    const transports = [...this.threads.values()].flatMap((thread) => (thread.transport ? [thread.transport] : []));
    this.threads.clear();
    await Promise.all(transports.map((transport) => transport.close()));
  }

  private async send(thread: MetricThread, program: ModuleMetricProgram, input: unknown, signal: AbortSignal | undefined): Promise<unknown> {
    if (thread.transport !== undefined && !thread.transport.isOpen()) {
      await thread.transport.close();
      thread.transport = undefined;
    }
    if (signal?.aborted) throw new ProviderError('aborted', `metric ${program.name}: evaluation aborted`);
    if (this.closed) throw new ProviderError('aborted', `metric ${program.name}: the run has ended`);
    if (thread.transport === undefined) {
      thread.transport = moduleAgent({ file: program.file, exportName: 'evaluate', timeoutMs: program.timeoutMs, env: program.env, label: 'module', owner: `metric ${program.name}`, printedPerCall: true });
    }
    return thread.transport.send(input, signal);
  }
}
