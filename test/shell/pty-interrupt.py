#!/usr/bin/env python3
"""Ctrl-C in the middle of a verb call, on a real pseudo-terminal (for test/shell/tty-verbose.bats).

usage: pty-interrupt.py SHELL SETUP COMMAND [AFTER]

Starts an interactive SHELL (bash or zsh -f), types SETUP, then COMMAND; once COMMAND has run
for a second, sends the terminal's interrupt character (Ctrl-C), then types `echo "st=$?"` and
prints the status the shell reports, e.g. `130`. With AFTER, then types it in the same shell
(still running) and prints its output line after the status, e.g. `130 {"hanging":0}`. Exit 1
when no status line came back.
"""

import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
from pty_session import spawn  # noqa: E402


def main() -> int:
    shell, setup, command = sys.argv[1:4]
    argv = ["bash", "--norc", "--noprofile", "-i"] if shell == "bash" else ["zsh", "-f", "-i"]
    child, _log = spawn(argv, env=dict(os.environ, PS1="$ ", TERM="dumb"), timeout=20)
    try:
        for line in setup.splitlines():
            child.sendline(line)
        child.sendline("echo READY$((40+2))")
        child.expect("READY42", timeout=20)
        child.sendline(command)
        time.sleep(1.0)
        child.sendintr()
        time.sleep(0.5)
        child.sendline('echo "st=$?"')
        child.expect(re.compile(rb"st=(\d+)"), timeout=20)
        st = child.match.group(1).decode()
        if len(sys.argv) > 4:
            child.sendline(sys.argv[4] + '; echo "<after>"')
            child.expect(re.compile(rb"\n([^\n]*)\r?\n<after>"), timeout=20)
            st += " " + child.match.group(1).decode().strip()
        print(st)
        return 0
    except Exception as e:  # noqa: BLE001 - the test reads the reason
        print(f"no status: {e}", file=sys.stderr)
        return 1
    finally:
        child.sendline("exit")
        child.close(force=True)


if __name__ == "__main__":
    sys.exit(main())
