#!/usr/bin/env python3
"""Drive an interactive shell through a real pseudo-terminal (for the bats tests).

usage: pty-drive.py SHELL SETUP KEYS EXPECT [TIMEOUT]

SHELL   bash or zsh: runs `bash --norc --noprofile -i` or `zsh -f -i` on a new pty (80x24).
SETUP   lines typed first (each followed by Enter); the driver then waits for the prompt to
        come back (it types `echo MARK$((40+2))` and waits for MARK42, which only the command's
        output, not the echo of the typed line, contains).
KEYS    typed after that, as is: "\t" is TAB, "\r" Enter (Python escapes are decoded).
EXPECT  a regular expression searched in the output after KEYS (escape sequences removed).

Prints the whole transcript (escapes removed) on stdout; exit 0 when EXPECT was seen before
TIMEOUT seconds (default 15), 1 otherwise. The shell is then told to exit and is killed if it
does not.
"""
import codecs
import fcntl
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
    if len(sys.argv) < 5:
        sys.stderr.write(__doc__)
        return 2
    shell, setup, keys, expect = sys.argv[1:5]
    timeout = float(sys.argv[5]) if len(sys.argv) > 5 else 15.0
    keys = codecs.decode(keys, "unicode_escape")
    argv = ["bash", "--norc", "--noprofile", "-i"] if shell == "bash" else ["zsh", "-f", "-i"]
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "dumb" if shell == "bash" else "xterm"
        os.environ["PS1"] = "$ "
        os.execvp(argv[0], argv)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    out = bytearray()

    def read_until(pattern: bytes, start: int, deadline: float) -> bool:
        rx = re.compile(pattern)
        while time.time() < deadline:
            if rx.search(clean(bytes(out[start:])).encode()):
                return True
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    return bool(rx.search(clean(bytes(out[start:])).encode()))
                if not data:
                    break
                out.extend(data)
        return bool(rx.search(clean(bytes(out[start:])).encode()))

    deadline = time.time() + timeout
    ok = False
    try:
        for line in setup.splitlines():
            os.write(fd, line.encode() + b"\r")
        os.write(fd, b"echo MARK$((40+2))\r")
        if read_until(rb"MARK42", 0, deadline):
            start = len(out)
            # Let the prompt be drawn before typing (zsh's line editor redraws at start).
            read_until(rb"\$ $", start, min(deadline, time.time() + 1.0))
            start = len(out)
            for ch in keys:
                os.write(fd, ch.encode())
                if ch in "\t\r":
                    time.sleep(0.3)
            ok = read_until(expect.encode(), start, deadline)
        os.write(fd, b"\x03")
        time.sleep(0.2)
        os.write(fd, b"exit\r")
        read_until(rb"\Z.", len(out), time.time() + 0.5)
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
    sys.stdout.write(clean(bytes(out)))
    sys.stdout.write("\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
