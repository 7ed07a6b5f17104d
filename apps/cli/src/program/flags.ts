import { Option } from 'commander';

/** `--format text|json`: json prints one JSON document on stdout and nothing else there. */
export function formatOption(): Option {
  return new Option('--format <format>', 'text, or json on stdout').choices(['text', 'json']);
}
