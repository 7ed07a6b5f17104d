import type { Status } from '@parley/core';
import type { RunHeader } from '../../src/page-data.js';
import { duration, plural, usd } from '../format.js';
import { StatusBadge } from '../status-badge.js';

const STATUS_ORDER: Status[] = ['error', 'fail', 'flaky', 'warn', 'pass', 'skipped'];

/** The run at a glance: suite, mode, status and exit code, counts, cost and savings, time, baseline, fingerprint, warnings. */
export function RunHeaderView({ header }: { header: RunHeader }) {
  const total = Object.values(header.counts).reduce((sum, count) => sum + count, 0);
  const promptCacheSaving = header.cost.cache_saving_usd;
  const judgeSaving = header.judge?.cache.saved_usd;
  return (
    <header class="run-header">
      <h1>
        <span class="suite">{header.suite}</span> <StatusBadge status={header.status} label={header.status.toUpperCase()} />
      </h1>
      <p class="subtitle">
        run <code>{header.run_id}</code> · {header.mode} · exit code {header.exit_code}
        {header.strict ? ' · --strict' : ''} · Parley {header.parley_version}
      </p>
      <dl class="facts">
        <div>
          <dt>Cases</dt>
          <dd>
            {plural(total, 'case')}:{' '}
            {STATUS_ORDER.filter((status) => header.counts[status] > 0).map((status, index) => (
              <span key={status}>
                {index > 0 ? ', ' : ''}
                <StatusBadge status={status} label={`${header.counts[status]} ${status}`} />
              </span>
            ))}
          </dd>
        </div>
        <div>
          <dt>Cost</dt>
          <dd>
            {usd(header.cost_usd)} · {plural(header.cost.calls, 'call')} · {header.cost.input_tokens.toLocaleString('en-US')} in /{' '}
            {header.cost.output_tokens.toLocaleString('en-US')} out tokens
          </dd>
        </div>
        <div>
          <dt>Saved</dt>
          <dd>
            prompt cache {promptCacheSaving === undefined ? '$0' : usd(promptCacheSaving)}
            {header.judge ? ` · judge cache ${usd(judgeSaving)} (${header.judge.cache.hits} hits)` : ''}
          </dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>
            {duration(header.duration_ms)} · started {header.started_at.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}
          </dd>
        </div>
        <div>
          <dt>Baseline</dt>
          <dd>
            {header.baseline ? (
              <>
                <code>{header.baseline.file}</code> ({header.baseline.created_at.slice(0, 10)}): {header.baseline.compared} compared,{' '}
                {header.baseline.regressions} regressions, {header.baseline.below_floor} below floor, {header.baseline.missing} missing,{' '}
                {header.baseline.improvements} improved{header.baseline.fingerprint_matches ? '' : ' · another configuration'}
              </>
            ) : (
              'none (not gated against a baseline)'
            )}
          </dd>
        </div>
        <div>
          <dt>Configuration</dt>
          <dd>
            fingerprint <code>{header.config_fingerprint ?? 'none'}</code>
            {header.git_sha ? (
              <>
                {' '}
                · git <code>{header.git_sha.slice(0, 12)}</code>
              </>
            ) : null}
          </dd>
        </div>
        {header.judge ? (
          <div>
            <dt>Judge</dt>
            <dd>
              {header.judge.primary} ({header.judge.mode}): {plural(header.judge.verdicts, 'verdict')}, {header.judge.errors} errors
              {header.judge.cross_check ? ` · cross-check ${header.judge.cross_check.model} on ${header.judge.cross_check.checked.length} of ${header.judge.cross_check.sampled.length} sampled` : ''}
            </dd>
          </div>
        ) : null}
        {header.budget ? (
          <div>
            <dt>Budget</dt>
            <dd>
              {usd(header.budget.limit_usd)}
              {header.budget.exhausted ? ' · exhausted' : ''}
              {header.budget.downgrades.length > 0 ? ` · ${header.budget.downgrades.join('; ')}` : ''}
            </dd>
          </div>
        ) : null}
        {header.selection ? (
          <div>
            <dt>Selection</dt>
            <dd>
              {header.selection.selected} of {header.selection.total} scenarios
              {header.selection.shard ? ` · shard ${header.selection.shard.index}/${header.selection.shard.total}` : ''}
              {header.selection.shards ? ` · merged from ${header.selection.shards} shards` : ''}
              {header.selection.changed_since ? ` · changed since ${header.selection.changed_since.ref}` : ''}
            </dd>
          </div>
        ) : null}
        {header.repeat ? (
          <div>
            <dt>Repeat</dt>
            <dd>each scenario {header.repeat} times</dd>
          </div>
        ) : null}
      </dl>
      {header.interruption ? (
        <p class="notice" role="note">
          <StatusBadge status="interrupted" /> by {header.interruption.signal} after {header.interruption.ran} of {header.interruption.planned} scenarios: finish with{' '}
          <code>{header.interruption.resume}</code>
        </p>
      ) : null}
      {header.warnings && header.warnings.length > 0 ? (
        <section aria-label="Warnings" class="warnings">
          <h2>Warnings</h2>
          <ul>
            {header.warnings.map((warning) => (
              <li key={warning.kind + warning.message}>
                <span aria-hidden="true">! </span>
                {warning.message}
                {warning.fails_under_strict ? ' (fails the run under --strict)' : ''}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </header>
  );
}
