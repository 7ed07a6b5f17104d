// The shell blocks (```sh, ```bash, ```console, ```shell) of the README and of docs/, each with the
// marker written on the line before it, which says how the pasted-steps test covers the block:
//
//   <!-- pasted: project -->         executed in a fresh project: the packed tarball installed, in a
//                                    git repository, keys pointed at tools/fake-llm (scripts/consumer-test.sh)
//   <!-- pasted: examples -->        executed in a copy of this repository's examples/ with the built
//                                    command, offline (scripts/docs/pasted-steps.test.ts)
//   <!-- pasted: ci (reason) -->     executed by .ci/run on a clean clone (the test checks .ci/run runs each line)
//   <!-- parse-only: reason -->      not executed; every `parley` line's command, flags, choices and
//                                    arguments are checked against the real command-line program
//   <!-- not-run: reason -->         not executed and not parsed (a synopsis with placeholders)
//
// `node scripts/docs/shell-blocks.mjs project FILE` prints the command lines of FILE's project
// blocks, one a line, for scripts/consumer-test.sh to run.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fence = /^```(sh|bash|console|shell)\s*$/;
const marker = /^<!--\s*(pasted|parse-only|not-run)(?::\s*([^>]*?))?\s*-->\s*$/;

/** The README and every page of docs/, as paths relative to the repository's root. */
export function documentedFiles() {
  const pages = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...pages];
}

/**
 * The shell blocks of one Markdown file: where each starts, its marker (`kind`: pasted, parse-only,
 * not-run, or undefined when the line before the fence is no marker; `how`: the text after the
 * colon), and its command lines: comments and blank lines dropped, `\` continuations joined.
 */
export function shellBlocks(file) {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks = [];
  let inOtherFence = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    if (!fence.test(line)) {
      if (line.startsWith('```')) inOtherFence = !inOtherFence;
      continue;
    }
    if (inOtherFence) continue;
    const before = marker.exec((lines[index - 1] ?? '').trim());
    const body = [];
    let end = index + 1;
    while (end < lines.length && !(lines[end] ?? '').startsWith('```')) body.push(lines[end++] ?? '');
    blocks.push({ file, line: index + 1, kind: before?.[1], how: before?.[2] ?? '', commands: commandLines(body) });
    index = end;
  }
  return blocks;
}

/** Command lines of a block's text: `\`-continued lines joined, comments and blank lines dropped. */
export function commandLines(body) {
  const joined = [];
  let pending = '';
  for (const line of body) {
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    joined.push(pending + line);
    pending = '';
  }
  if (pending !== '') joined.push(pending);
  return joined.map(withoutComment).filter((line) => line !== '');
}

/** A line without its shell comment (a `#` that starts a word outside quotes), trimmed. */
function withoutComment(line) {
  let quote = '';
  for (let index = 0; index < line.length; index++) {
    const char = line[index];
    if (quote !== '') {
      if (char === quote) quote = '';
      else if (char === '\\' && quote === '"') index++;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '\\') index++;
    else if (char === '#' && (index === 0 || /\s/.test(line[index - 1] ?? ''))) return line.slice(0, index).trim();
  }
  return line.trim();
}

/**
 * The simple commands of a line as word lists: split at `&&`, `||`, `|` and `;`, words unquoted,
 * a redirection (`> file`, `2>&1`) and an environment assignment before the command left out.
 */
export function simpleCommands(line) {
  const commands = [[]];
  let word = null;
  let quote = '';
  const finish = () => {
    if (word !== null) commands[commands.length - 1].push(word);
    word = null;
  };
  for (let index = 0; index < line.length; index++) {
    const char = line[index] ?? '';
    if (quote !== '') {
      if (char === quote) quote = '';
      else if (char === '\\' && quote === '"' && index + 1 < line.length) word += line[++index];
      else word += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
    } else if (char === '\\' && index + 1 < line.length) word = (word ?? '') + line[++index];
    else if (/\s/.test(char)) finish();
    else if (char === '|' || char === ';' || (char === '&' && line[index + 1] === '&')) {
      finish();
      if (line[index + 1] === char) index++;
      commands.push([]);
    } else word = (word ?? '') + char;
  }
  finish();
  return commands
    .map((words) => {
      const kept = [];
      for (let index = 0; index < words.length; index++) {
        const current = words[index] ?? '';
        if (/^\d*(>>?|<)$/.test(current)) index++; // `> file`: the target is the next word
        else if (/^\d*(>>?|<)/.test(current) || current === '&') continue; // `2>&1`, `>file`, a trailing `&`
        else kept.push(current);
      }
      while (kept.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(kept[0] ?? '')) kept.shift();
      return kept;
    })
    .filter((words) => words.length > 0);
}

/** The arguments after `parley` of a simple command that runs Parley (`parley …`, `npx parley …`), else undefined. */
export function parleyArguments(words) {
  if (words[0] === 'parley') return words.slice(1);
  if (words[0] === 'npx' && words[1] === 'parley') return words.slice(2);
  return undefined;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [what, file] = process.argv.slice(2);
  if (what !== 'project' || file === undefined) {
    console.error('usage: node scripts/docs/shell-blocks.mjs project FILE');
    process.exit(2);
  }
  for (const block of shellBlocks(file).filter((candidate) => candidate.kind === 'pasted' && candidate.how.startsWith('project')))
    for (const command of block.commands) console.log(command);
}
