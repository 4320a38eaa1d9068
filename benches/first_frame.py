#!/usr/bin/env python3
"""Real-terminal start-up and memory of the player binary, on a pseudo-terminal.

    cargo build --release && python3 benches/first_frame.py target/release/termdoku 100 40

Times exec -> the first complete frame (the status line has arrived), then plays a few keys
(fill candidates, moves, a digit, the hint ladder, undo), quits, and reports the peak RSS
measured by /usr/bin/time (Debian's `time` package). Each start uses fresh state and config folders.
"""
import fcntl, os, pty, select, statistics, struct, sys, tempfile, termios, time

binp, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
times, rss = [], []
for _ in range(15):
    d = tempfile.mkdtemp()
    env = dict(os.environ, LANG="C.UTF-8", TERM="xterm-256color",
               TERMDOKU_STATE_DIR=d + "/s", TERMDOKU_CONFIG_DIR=d + "/c")
    t0 = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", h, w, 0, 0))
        # /usr/bin/time reports the binary's own peak RSS (wait4 here would count the
        # Python process forked before exec).
        os.execve("/usr/bin/time", ["time", "-f", "%M", "-o", d + "/rss", binp], env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", h, w, 0, 0))
    buf = b""
    while b"mistakes 0" not in buf:
        r, _, _ = select.select([fd], [], [], 5)
        if not r:
            break
        buf += os.read(fd, 65536)
    times.append((time.perf_counter() - t0) * 1000)
    for k in b"alljj4HHHHu":
        os.write(fd, bytes([k]))
        select.select([fd], [], [], 0.05)
        try:
            os.read(fd, 65536)
        except OSError:
            pass
    os.write(fd, b"q")
    try:
        while os.read(fd, 65536):
            pass
    except OSError:
        pass
    os.waitpid(pid, 0)
    with open(d + "/rss") as f:
        rss.append(int(f.read().split()[-1]))
times.sort()
print(f"{w}x{h}: first frame median {statistics.median(times):.1f} ms, max {times[-1]:.1f} ms; "
      f"peak RSS max {max(rss) / 1024:.1f} MB over {len(times)} runs")
