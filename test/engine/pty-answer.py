#!/usr/bin/env python3
"""Run a command on a real pseudo-terminal and answer what it asks (for the vitest tests).

usage: pty-answer.py TIMEOUT COMMAND [ARG...]  < STEPS

STEPS   on stdin, a JSON array of {"expect": REGEX, "send": TEXT}: wait until REGEX appears in
        the output seen since the previous step (escape sequences and \\r removed), then type
        TEXT ("\\r" is Enter, "\\x04" Ctrl-D, "\\x03" Ctrl-C).
The command's stdin, stdout and stderr are the pty (80x24); after the last step the output is
read until the command exits.

Prints one JSON object on stdout: {"ok": every step matched, "missed": the first REGEX not
seen or null, "status": the exit status, or -N when killed by signal N, "transcript": the
whole output (escapes removed)}. The command is killed when TIMEOUT seconds pass.
"""
import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time

ANSI = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\x1b\][^\x07]*\x07|\r")


def clean(b: bytes) -> str:
    return ANSI.sub(b"", b).decode("utf-8", "replace")


def main() -> int:
    if len(sys.argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    timeout = float(sys.argv[1])
    argv = sys.argv[2:]
    steps = json.load(sys.stdin)
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(argv[0], argv)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    out = bytearray()
    deadline = time.time() + timeout
    eof = False

    def pump(wait: float) -> None:
        nonlocal eof
        r, _, _ = select.select([fd], [], [], wait)
        if r:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            if not data:
                eof = True
            out.extend(data)

    ok, missed, start = True, None, 0
    for step in steps:
        rx = re.compile(step["expect"])
        while not rx.search(clean(bytes(out[start:]))) and not eof and time.time() < deadline:
            pump(0.05)
        m = rx.search(clean(bytes(out[start:])))
        if not m:
            ok, missed = False, step["expect"]
            break
        start = len(out)
        # Give the command a moment to switch the terminal to its line editor before typing.
        time.sleep(0.1)
        os.write(fd, step["send"].encode())
    while not eof and time.time() < deadline:
        pump(0.05)
    status = None
    try:
        if not eof:
            os.kill(pid, signal.SIGKILL)
        _, st = os.waitpid(pid, 0)
        status = os.WEXITSTATUS(st) if os.WIFEXITED(st) else -os.WTERMSIG(st)
    except ChildProcessError:
        pass
    json.dump({"ok": ok, "missed": missed, "status": status, "transcript": clean(bytes(out))}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
