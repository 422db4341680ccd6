#!/usr/bin/env python3
"""Run a command on a real pseudo-terminal (pexpect) and answer what it asks (vitest tests).

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

import json
import os
import sys
import time

import pexpect

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
from pty_session import seen_since, spawn, wait_for  # noqa: E402


def main() -> int:
    if len(sys.argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    timeout = float(sys.argv[1])
    argv = sys.argv[2:]
    steps = json.load(sys.stdin)
    child, log = spawn(argv, timeout=timeout)
    deadline = time.time() + timeout
    ok, missed, start = True, None, 0
    for step in steps:
        if not wait_for(child, log, step["expect"], start, deadline):
            ok, missed = False, step["expect"]
            break
        start = len(log.getvalue())
        # Give the command a moment to switch the terminal to its line editor before typing.
        time.sleep(0.1)
        child.send(step["send"])
    # The rest of the output, until the command exits or the time is up.
    while time.time() < deadline:
        try:
            child.read_nonblocking(65536, timeout=min(0.05, max(deadline - time.time(), 0.001)))
        except pexpect.TIMEOUT:
            pass
        except pexpect.EOF:
            break
    child.close(force=True)
    if child.exitstatus is not None:
        status = child.exitstatus
    elif child.signalstatus is not None:
        status = -child.signalstatus
    else:
        status = None
    json.dump({"ok": ok, "missed": missed, "status": status, "transcript": seen_since(log, 0)}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
