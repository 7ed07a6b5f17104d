import { ConfigError } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { otlpSettings } from './otlp-settings.js';

describe('otlpSettings: the OTLP exporter rules for the traces endpoint', () => {
  it.each([
    // --to otlp=URL: a base URL gets v1/traces, a URL with a path is the traces URL.
    ['http://collector:4318', {}, 'http://collector:4318/v1/traces'],
    ['http://collector:4318/', {}, 'http://collector:4318/v1/traces'],
    ['http://collector:4318/v1/traces', {}, 'http://collector:4318/v1/traces'],
    ['https://cloud.example.com/otlp/v1/traces', {}, 'https://cloud.example.com/otlp/v1/traces'],
    // The flag wins over the variables.
    ['http://flag:4318', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://env:4318/x' }, 'http://flag:4318/v1/traces'],
    // The specification's examples: the generic variable is a base, the signal one is used as is (root path if none).
    [undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, 'http://collector:4318/v1/traces'],
    [undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/mycollector/' }, 'http://collector:4318/mycollector/v1/traces'],
    [undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/mycollector' }, 'http://collector:4318/mycollector/v1/traces'],
    [undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318' }, 'http://collector:4318/'],
    [undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector.example.com/v1/traces/', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://other:4318' }, 'https://collector.example.com/v1/traces/'],
    [undefined, {}, 'http://localhost:4318/v1/traces'],
  ])('--to otlp=%s with %j sends to %s', (flag, env, url) => {
    expect(otlpSettings(flag, env).url).toBe(url);
  });

  it('reads headers as W3C Baggage (percent-decoded), the traces variable overriding the generic one key by key', () => {
    const settings = otlpSettings('http://c:4318', {
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=generic, x-tenant = ratiba',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'api-key=tr%20aces%3D1',
    });
    expect(settings.headers).toEqual({ 'api-key': 'tr aces=1', 'x-tenant': 'ratiba' });
  });

  it('a malformed header entry names the variable, never the value', () => {
    const attempt = () => otlpSettings('http://c:4318', { OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer s3cret,bare-s3cret' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow('OTEL_EXPORTER_OTLP_HEADERS: entry 2 is not key=value (the format is key1=value1,key2=value2)');
  });

  it('protocol: http/protobuf by default, the traces variable first; grpc and unknown values are refused', () => {
    expect(otlpSettings(undefined, {}).protocol).toBe('http/protobuf');
    expect(otlpSettings(undefined, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).protocol).toBe('http/json');
    expect(otlpSettings(undefined, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' }).protocol).toBe('http/protobuf');
    expect(() => otlpSettings(undefined, { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow('OTEL_EXPORTER_OTLP_PROTOCOL=grpc: Parley sends OTLP over HTTP only');
    expect(() => otlpSettings(undefined, { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/xml' })).toThrow('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL must be http/protobuf or http/json (got "http/xml")');
  });

  it('timeout from OTEL_EXPORTER_OTLP_TIMEOUT in milliseconds, 10 s by default; a bad URL is a ConfigError without its credentials', () => {
    expect(otlpSettings(undefined, {}).timeoutMs).toBe(10_000);
    expect(otlpSettings(undefined, { OTEL_EXPORTER_OTLP_TIMEOUT: '2500' }).timeoutMs).toBe(2500);
    expect(() => otlpSettings(undefined, { OTEL_EXPORTER_OTLP_TIMEOUT: '2.5s' })).toThrow('OTEL_EXPORTER_OTLP_TIMEOUT must be a positive whole number of milliseconds');
    expect(() => otlpSettings('ftp://user:pw@c/x', {})).toThrow('--to otlp=URL must be an http(s) URL (got "ftp://c/x")');
  });
});
