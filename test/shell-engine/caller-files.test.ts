// The caller's own files as the daemon reaches them (engine/src/shell-verbs/caller-files.ts):
// names of the caller's descriptors, and a real process's fds (a shell holding a file at an
// offset, one opened for appending, a pipe) read from /proc.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callerFd, callerPath, openCallerInput, openCallerOutput } from '../../engine/src/shell-verbs/caller-files.js';
import { callerFiles } from '../../engine/src/shell-verbs/build-request.js';
import { emptyOptions, parseCurlOptions } from '../../engine/src/curl/options.js';

describe('callerPath', () => {
  it.each([
    ['/dev/fd/63', '/proc/42/fd/63'],
    ['/proc/self/fd/12', '/proc/42/fd/12'],
    ['/dev/stdin', '/proc/42/fd/0'],
    ['/dev/stdout', '/proc/42/fd/1'],
    ['/dev/stderr', '/proc/42/fd/2'],
    ['/dev/fd/', '/dev/fd/'],
    ['/dev/fd/63/x', '/dev/fd/63/x'],
    ['dev/fd/3', 'dev/fd/3'],
    ['/etc/netrc', '/etc/netrc'],
  ])('%s -> %s', (name, to) => {
    expect(callerPath(name, '42')).toBe(to);
  });
  it('leaves every name alone without a caller PID (the direct mode)', () => {
    expect(callerPath('/dev/fd/63', undefined)).toBe('/dev/fd/63');
    expect(callerPath('/dev/fd/63', 'x1')).toBe('/dev/fd/63');
  });
});

describe('callerFiles', () => {
  it("maps the file names among curl's options, and only those", () => {
    const o = callerFiles(parseCurlOptions(['--netrc-file', '/dev/fd/63', '-d', '@/dev/fd/5', '--data-urlencode', 'n@/dev/fd/6', '-d', '/dev/fd/7', '-T', '/dev/stdin', '--cacert', '/dev/fd/8', '-b', '/dev/fd/9', '-H', 'X: /dev/fd/1'], emptyOptions()), '42');
    expect(o.netrcFile).toBe('/proc/42/fd/63');
    expect(o.data.map((d) => d.value)).toEqual(['@/proc/42/fd/5', 'n@/proc/42/fd/6', '/dev/fd/7']);
    expect(o.uploadFile).toBe('/proc/42/fd/0');
    expect(o.cacert).toBe('/proc/42/fd/8');
    expect(o.cookieFiles).toEqual(['/proc/42/fd/9']);
    expect(o.headers).toEqual([['X', '/dev/fd/1']]);
  });
});

describe("a real process's descriptors", () => {
  let child: ChildProcess | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'caller-files-'));
  afterEach(() => child?.kill());

  /** A process whose stdout is `file`, opened as the shell's `>` or `>>` would, after `pre` was written. */
  const holder = async (file: string, flags: 'w' | 'a', pre: string) => {
    const fd = fs.openSync(file, flags);
    fs.writeSync(fd, pre);
    const c = spawn('sleep', ['30'], { stdio: ['ignore', fd, 'ignore'] });
    await new Promise((r) => c.once('spawn', r));
    fs.closeSync(fd);
    return c;
  };

  it('a > file: its offset, written at it by the daemon, nothing truncated', async () => {
    const f = path.join(dir, 'out.txt');
    child = await holder(f, 'w', 'abc');
    const fd = callerFd(String(child.pid), 1);
    expect(fd).toMatchObject({ kind: 'file', append: false, pos: 3, size: 3 });
    const out = openCallerOutput(String(child.pid), 1)!;
    out.stream.write(Buffer.from('BODY'));
    await out.close();
    expect(out.advance()).toBe(4);
    expect(fs.readFileSync(f, 'utf8')).toBe('abcBODY');
  });

  it('a >> file: appended, and no offset for the shell to move', async () => {
    const f = path.join(dir, 'log.txt');
    fs.writeFileSync(f, 'old\n');
    child = await holder(f, 'a', 'x');
    expect(callerFd(String(child.pid), 1)).toMatchObject({ kind: 'file', append: true });
    const out = openCallerOutput(String(child.pid), 1)!;
    out.stream.write(Buffer.from('BODY'));
    await out.close();
    expect(out.advance()).toBe(0);
    expect(fs.readFileSync(f, 'utf8')).toBe('old\nxBODY');
  });

  it('a < file read from the shell offset to its end, with its size', async () => {
    const f = path.join(dir, 'in.txt');
    fs.writeFileSync(f, 'line1\nthe body\n');
    child = await new Promise<ChildProcess>((resolve) => {
      const c = spawn('bash', ['-c', 'IFS= read -r x; echo ready >&2; exec sleep 30'], { stdio: [fs.openSync(f, 'r'), 'ignore', 'pipe'] });
      c.stderr!.once('data', () => resolve(c));
    });
    const input = openCallerInput(String(child.pid), 0)!;
    expect(input.size).toBe(9);
    const chunks: Buffer[] = [];
    for await (const c of input.stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('the body\n');
    expect(input.consumed()).toBe(9);
  });

  it('a pipe as stdin: read by the daemon to its end (bytes left after the writer went, then EOF), no size, no offset to move', async () => {
    // A shell whose stdin is a pipe from cat (Node's own 'pipe' is a socket pair); the test
    // writes through cat part of the body, then the rest, then ends it (cat exits: EOF).
    child = spawn('bash', ['-c', 'cat | { echo $BASHPID >&2; exec sleep 30; }'], { stdio: ['pipe', 'ignore', 'pipe'] });
    const pid = await new Promise<string>((r) => child!.stderr!.once('data', (d) => r(String(d).trim())));
    expect(callerFd(pid, 0)?.kind).toBe('pipe');
    child.stdin!.write('first, ');
    const input = openCallerInput(pid, 0)!;
    expect(input).toBeDefined();
    expect(input.size).toBeUndefined();
    const chunks: Buffer[] = [];
    const done = (async () => {
      for await (const c of input.stream) chunks.push(c as Buffer);
    })();
    await new Promise((r) => setTimeout(r, 50));
    child.stdin!.end('then the rest');
    await done;
    expect(Buffer.concat(chunks).toString()).toBe('first, then the rest');
    expect(input.consumed()).toBe(0);
    process.kill(Number(pid));
  });

  it('a pipe (a FIFO here): written by the daemon, the reader gets the bytes; a closed fd is /dev/null; no process, undefined', async () => {
    const fifo = path.join(dir, 'fifo');
    spawnSync('mkfifo', [fifo]);
    // O_RDWR on a FIFO does not wait for a writer (Linux): the test is the reader.
    const reader = fs.openSync(fifo, 'r+');
    child = spawn('sleep', ['30'], { stdio: ['ignore', reader, 'ignore'] });
    await new Promise((r) => child!.once('spawn', r));
    expect(callerFd(String(child.pid), 1)?.kind).toBe('pipe');
    const out = openCallerOutput(String(child.pid), 1)!;
    out.stream.write(Buffer.from('through the pipe'));
    await out.close();
    expect(out.advance()).toBe(0);
    const got = Buffer.alloc(64);
    expect(got.subarray(0, fs.readSync(reader, got)).toString()).toBe('through the pipe');
    fs.closeSync(reader);
    expect(callerFd(String(child.pid), 7)).toMatchObject({ kind: 'closed', path: '/dev/null' });
    expect(callerFd('999999999', 1)).toBeUndefined();
  });
});
