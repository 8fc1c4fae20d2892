#!/usr/bin/env python3
"""pty-knob.py: what a user waits for after a knob key, timed from outside
without a terminal emulator polling the screen.

    scripts/pty-knob.py BIN FILE        # ROUNDS=8, PAUSE=2 by default
    PROF=1 scripts/pty-knob.py BIN FILE # BIN built with -tags prof: profile the keys

Runs BIN FILE on a pseudo-terminal of 200x50, goes to the last call, moves
the pins off the recorded policy (}), then presses ] and } in turn, so that
every key asks for a policy never shown before. Each key is timed from the
moment it is written to the moment the program has written the frame that
shows the replayed window: the policy bar of the new policy, and no
"replaying…" after it. What a terminal then takes to draw the bytes is not
counted; the wait for the program's next frame (up to 8.3 ms: bubbletea
draws 120 a second) is.

On a long run the program replays ahead, while the user reads, what the
first knob keys would give (tui/kept.go): keys PAUSE=1 or 2 s apart find
their replay made. Keys faster than that work (PAUSE=0.2) wait for a
replay made on the key, as does every key of a program built with
keepReplays = 0.

It also prints the program's resident memory (VmRSS) once it is idle
after loading and after the last key, and their ratio.

tmux-knob.sh times the same from a tmux pane, but its polling of the pane
costs about a core: on a 2-core machine it takes the second core from the
replay's second goroutine. This reads the program's output as it comes,
idle in select() between writes.
"""
import fcntl
import os
import random
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time

ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][A-Za-z0-9]|\x1b[=>78]")


def rss(pid):
    """The process's resident memory now, in kB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def settle(pid, drain, limit=600.0):
    """Waits (reading the output) until the process has used under 50 ms
    of CPU in a second: the load is done and nothing runs after it."""
    def cpu():
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        c0 = cpu()
        drain(1.0)
        if cpu() - c0 < 0.05:
            return


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: pty-knob.py BIN FILE")
    bin_, path = sys.argv[1], sys.argv[2]
    rounds = int(os.environ.get("ROUNDS", "8"))
    pause = float(os.environ.get("PAUSE", "2"))

    master, slave = os.openpty()
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
    env = dict(os.environ, TERM="xterm-256color")
    proc = subprocess.Popen([bin_, path], stdin=slave, stdout=slave, stderr=slave,
                            env=env, start_new_session=True, close_fds=True)
    os.close(slave)
    buf = bytearray()

    def pump(timeout):
        """Reads what the program wrote within timeout seconds."""
        r, _, _ = select.select([master], [], [], timeout)
        if not r:
            return False
        try:
            data = os.read(master, 1 << 16)
        except OSError:
            sys.exit("the program ended")
        buf.extend(data)
        return True

    def text():
        return ANSI.sub(b"", bytes(buf)).decode("utf-8", "replace")

    def wait_for(pred, limit=180.0):
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if pred(text()):
                return time.monotonic()
            pump(max(0.0, min(0.5, deadline - time.monotonic())))
        sys.exit("timed out; the screen read:\n" + text()[-2000:])

    def drain(seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            pump(end - time.monotonic())

    def key(k):
        buf.clear()
        os.write(master, k.encode())
        return time.monotonic()

    shown = ("comparing every turn", "turn(s) differ")
    wait_for(lambda s: "policy recorded" in s)
    drain(1.0)
    settle(proc.pid, drain)
    rss0 = rss(proc.pid)  # loaded, at the first call, idle
    key("G")
    drain(1.0)
    key("}")
    wait_for(lambda s: any(x in s for x in shown))
    drain(3.0)  # what starts after the frame (the evidence pass, work ahead) settles
    knobs = re.findall(r"keepRecentTurns=(\d+)\*?  keepLastToolResults=(\d+)", text())
    if not knobs:
        sys.exit("no policy bar on the screen:\n" + text()[-2000:])
    recent, pins = map(int, knobs[-1])
    print(f"file: {path}; {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}")
    prof = os.environ.get("PROF") == "1"
    if prof:  # main_prof.go: a CPU profile, a trace, the heap after
        proc.send_signal(signal.SIGUSR1)

    def replayed(want):
        """The frame of the new policy is written: its policy bar, and no
        "replaying…" after it (else the status line that follows that)."""
        def done(s):
            at = s.find(want)
            if at < 0:
                return False
            waiting = s.rfind("replaying…")
            return waiting < 0 or any(x in s[waiting:] for x in shown)
        return done

    took = []
    for i in range(1, rounds + 1):
        k = "]" if i % 2 else "}"
        if k == "]":
            recent += 1
        else:
            pins += 1
        t0 = key(k)
        t1 = wait_for(replayed(f"keepRecentTurns={recent}*  keepLastToolResults={pins}*"))
        ms = (t1 - t0) * 1000
        took.append(ms)
        print(f"key {k} (a policy never shown before): the frame written in {ms:.0f} ms")
        # a person's key falls anywhere between two of the program's
        # frames (120 a second); a pause of whole seconds after a frame
        # would put every key just after one, and round every wait up to
        # a whole number of frames
        drain(pause + random.uniform(0, 1 / 120))
    if prof:
        proc.send_signal(signal.SIGUSR2)
        drain(2.0)
        print("profiles written: $INSPECT_PROF.cpu .trace .heap (default /tmp/inspect-prof)")
    rss1 = rss(proc.pid)
    print(f"resident memory: {rss0 / 1024:.0f} MB after loading, {rss1 / 1024:.0f} MB after {rounds + 1} knob keys ({rss1 / rss0:.2f}×)")
    took.sort()
    print(f"median {took[len(took) // 2]:.0f} ms, slowest {took[-1]:.0f} ms")
    os.write(master, b"q")
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()


if __name__ == "__main__":
    main()
