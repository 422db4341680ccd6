#!/usr/bin/env python3
"""Drive an interactive shell through a real pseudo-terminal, with pexpect (for the bats tests).

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
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
from pty_session import seen_since, spawn, wait_for  # noqa: E402


def main() -> int:
    if len(sys.argv) < 5:
        sys.stderr.write(__doc__)
        return 2
    shell, setup, keys, expect = sys.argv[1:5]
    timeout = float(sys.argv[5]) if len(sys.argv) > 5 else 15.0
    keys = codecs.decode(keys, "unicode_escape")
    argv = ["bash", "--norc", "--noprofile", "-i"] if shell == "bash" else ["zsh", "-f", "-i"]
    env = dict(os.environ, TERM="dumb" if shell == "bash" else "xterm", PS1="$ ")
    child, log = spawn(argv, env=env, timeout=timeout)
    # pexpect waits 50 ms before each send (for programs that turn echo off at a password
    # prompt); keys typed into a line editor are read in order from the terminal's buffer.
    child.delaybeforesend = None
    deadline = time.time() + timeout
    ok = False
    try:
        for line in setup.splitlines():
            child.send(line + "\r")
        child.send("echo MARK$((40+2))\r")
        if wait_for(child, log, r"MARK42", 0, deadline):
            # Let the prompt after MARK42 be drawn before typing (zsh's line editor redraws at
            # start). It is often read in the same chunk as MARK42, so it is searched from the
            # start of the output; searched only after MARK42 was seen, it was never found and
            # this wait was a fixed second.
            wait_for(child, log, r"MARK42\n[\s\S]*\$ $", 0, min(deadline, time.time() + 1.0))
            start = len(log.getvalue())
            for i, ch in enumerate(keys):
                child.send(ch)
                # A pause after TAB or Enter for the shell to act before the next key; none
                # after the last key, where EXPECT is waited for.
                if ch in "\t\r" and i < len(keys) - 1:
                    time.sleep(0.3)
            ok = wait_for(child, log, expect, start, deadline)
        child.send("\x03")
        time.sleep(0.2)
        child.send("exit\r")
        wait_for(child, log, r"\Z.", len(log.getvalue()), time.time() + 0.5)
    finally:
        child.close(force=True)
    sys.stdout.write(seen_since(log, 0))
    sys.stdout.write("\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
