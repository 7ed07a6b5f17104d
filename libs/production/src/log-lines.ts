import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { ConfigError, decodeUtf8, type ConfigIssue } from '@parley/core';

/**
 * The longest line a production log may have (bytes). A conversation of a few hundred turns is
 * well under a megabyte; a longer line is a broken export (or `/dev/zero` renamed), and reading it
 * whole would hold it all in memory before a word is said.
 */
export const MAX_LOG_LINE_BYTES = 8 * 1024 * 1024;

/** Bad lines shown in full; the rest are counted in one closing issue, so a million bad lines print a screenful, not a million. */
export const SHOWN_LOG_ISSUES = 20;

/** One line of a log, without its line break, with its 1-based number. */
export interface LogLine {
  line: number;
  text: string;
}

/** The bad lines of one log: the first SHOWN_LOG_ISSUES kept, the rest counted. */
export class LogIssues {
  private readonly shown: ConfigIssue[] = [];
  private more = 0;
  private firstHidden = 0;

  constructor(private readonly file: string) {}

  add(line: number, message: string, column = 1): void {
    if (this.shown.length < SHOWN_LOG_ISSUES) this.shown.push({ file: this.file, line, column, message });
    else {
      if (this.more === 0) this.firstHidden = line;
      this.more += 1;
    }
  }

  get count(): number {
    return this.shown.length + this.more;
  }

  /** A ConfigError (exit 2) with the issues when there are any. */
  throwIfAny(): void {
    if (this.shown.length === 0) return;
    const summary = this.more > 0 ? [{ file: this.file, line: this.firstHidden, column: 1, message: `… and ${this.more} more bad line${this.more === 1 ? '' : 's'} from here on (the first ${SHOWN_LOG_ISSUES} are shown)` }] : [];
    throw new ConfigError([...this.shown, ...summary]);
  }
}

/**
 * Splits bytes into lines: a line longer than `maxLineBytes` is an issue (its bytes are dropped as
 * they come, so memory stays bounded), a line that is not UTF-8 is an issue naming its column; the
 * other lines are handed on as text. A carriage return before the line feed is dropped, and a
 * byte-order mark at the start of the first line.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private length = 0;
  private tooLong = false;
  private lineNumber = 0;

  constructor(
    private readonly issues: LogIssues,
    private readonly file: string,
    private readonly maxLineBytes = MAX_LOG_LINE_BYTES,
  ) {}

  /** The complete lines in this chunk. */
  *push(chunk: Buffer): Generator<LogLine> {
    let start = 0;
    for (let end = chunk.indexOf(0x0a, start); end !== -1; end = chunk.indexOf(0x0a, start)) {
      this.append(chunk.subarray(start, end));
      const line = this.finishLine();
      if (line !== undefined) yield line;
      start = end + 1;
    }
    if (start < chunk.length) this.append(chunk.subarray(start));
  }

  /** The last line when the input does not end with a line break. */
  *end(): Generator<LogLine> {
    if (this.length > 0 || this.tooLong) {
      const line = this.finishLine();
      if (line !== undefined) yield line;
    }
  }

  private append(bytes: Buffer): void {
    if (this.tooLong) return;
    if (this.length + bytes.length > this.maxLineBytes) {
      this.tooLong = true;
      this.parts = [];
      this.length = 0;
      return;
    }
    this.parts.push(Buffer.from(bytes));
    this.length += bytes.length;
  }

  private finishLine(): LogLine | undefined {
    this.lineNumber += 1;
    const line = this.lineNumber;
    if (this.tooLong) {
      this.tooLong = false;
      this.issues.add(line, `the line is longer than ${formatBytes(this.maxLineBytes)}: a conversation log has one conversation a line`);
      return undefined;
    }
    let bytes = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.length);
    this.parts = [];
    this.length = 0;
    if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1);
    if (line === 1 && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    if (!isUtf8(bytes)) {
      const decoded = decodeUtf8(bytes, this.file);
      if ('issue' in decoded) this.issues.add(line, decoded.issue.message, decoded.issue.column);
      else this.issues.add(line, 'the line is not UTF-8 text');
      return undefined;
    }
    return { line, text: bytes.toString('utf8') };
  }
}

/**
 * The lines of a log file, read in chunks so memory stays bounded whatever the file's size. Only a
 * regular file is read: a folder, a FIFO or a device (`/dev/urandom`, `/dev/zero`) is refused
 * before a byte is read (opened without blocking, so a FIFO with no writer cannot hang it).
 */
export function* logFileLines(path: string, what: string, issues: LogIssues, maxLineBytes = MAX_LOG_LINE_BYTES): Generator<LogLine> {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new ConfigError({ file: path, message: `cannot read the ${what}: ${(error as Error).message}` });
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      const kind = stat.isDirectory() ? 'a folder' : stat.isFIFO() ? 'a FIFO (named pipe)' : stat.isSocket() ? 'a socket' : 'a device';
      throw new ConfigError({ file: path, message: `cannot read the ${what}: it is ${kind}, not a regular file; give the ${what} as a file` });
    }
    const splitter = new LineSplitter(issues, path, maxLineBytes);
    const buffer = Buffer.alloc(1024 * 1024);
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      yield* splitter.push(buffer.subarray(0, read));
    }
    yield* splitter.end();
  } finally {
    closeSync(fd);
  }
}

/** The lines of a stream (stdin), with the same line limit and UTF-8 check as a file. */
export async function* logStreamLines(stream: AsyncIterable<Buffer | string>, file: string, issues: LogIssues, maxLineBytes = MAX_LOG_LINE_BYTES): AsyncGenerator<LogLine> {
  const splitter = new LineSplitter(issues, file, maxLineBytes);
  for await (const chunk of stream) yield* splitter.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  yield* splitter.end();
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}
