#!/usr/bin/env python3
"""Edit-to-reload latency of `portolan serve`, measured from outside.

    python3 bench/serve_latency.py PORTOLAN CONFIG CONTENT_FILE GO_FILE [RUNS]

Starts `PORTOLAN serve --port 0 --config CONFIG`, listens to its event stream, then
alternately edits CONTENT_FILE (a markdown page) and GO_FILE (a Go file of a `path =`
project), each edit a new line so the site really changes, and times each edit from the
write to the `reload` event and to the `search` event of the same rebuild (the search
index caught up). The next edit waits for that `search` event and 0.5 s more, as a person
between saves would. Prints min / median / max per kind. The files are restored
at the end. Standard library only.
"""
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import queue


def main():
    binary, config, content, go = sys.argv[1:5]
    runs = int(sys.argv[5]) if len(sys.argv) > 5 else 11
    originals = {p: open(p, "rb").read() for p in (content, go)}
    server = subprocess.Popen(
        [binary, "serve", "--port", "0", "--config", config],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True,
    )
    log = []
    address = None
    for line in server.stderr:
        log.append(line)
        if line.startswith("portolan: serving http://"):
            address = line.split("http://", 1)[1].split("/", 1)[0]
            break
    if address is None:
        sys.exit("serve did not start:\n" + "".join(log))
    threading.Thread(target=lambda: [log.append(l) for l in server.stderr], daemon=True).start()
    host, port = address.rsplit(":", 1)
    events = queue.Queue()

    def listen():
        s = socket.create_connection((host, int(port)))
        s.sendall(f"GET /__portolan/events HTTP/1.1\r\nHost: {address}\r\n\r\n".encode())
        f = s.makefile("r", encoding="utf-8", newline="\n")
        name = None
        for line in f:
            if line.startswith("event: "):
                name = (time.monotonic(), line[7:].strip())
            elif line.startswith("data: ") and name:
                events.put((*name, line[6:].strip()))
                name = None

    threading.Thread(target=listen, daemon=True).start()
    time.sleep(1.0)
    timings = {"content": [], "go": [], "content search": [], "go search": []}
    try:
        for i in range(runs):
            for kind, path, line in (
                ("content", content, f"\nBenchmark edit {i}.\n"),
                ("go", go, f"\n// portolan benchmark edit {i}\n"),
            ):
                while not events.empty():
                    events.get_nowait()
                start = time.monotonic()
                with open(path, "ab") as f:
                    f.write(line.encode())
                at, name, generation = events.get(timeout=60)
                if name != "reload":
                    sys.exit(f"expected reload, got {name}:\n" + "".join(log[-20:]))
                timings[kind].append((at - start) * 1000)
                while True:
                    at, name, data = events.get(timeout=60)
                    if name == "search" and data == generation:
                        break
                    if name != "search":
                        sys.exit(f"expected search, got {name}:\n" + "".join(log[-20:]))
                timings[kind + " search"].append((at - start) * 1000)
                time.sleep(0.5)
    finally:
        for p, data in originals.items():
            with open(p, "wb") as f:
                f.write(data)
        server.terminate()
        server.wait()
    for kind, ms in timings.items():
        print(f"{kind.split()[0]} edit -> {'search' if 'search' in kind else 'reload'} event: runs {len(ms)}, "
              f"min {min(ms):.0f} ms, median {statistics.median(ms):.0f} ms, max {max(ms):.0f} ms")
    print("server log (last rebuild lines):")
    for line in [l for l in log if "portolan: rebuild" in l][-4:]:
        print("  " + line.rstrip())


if __name__ == "__main__":
    main()
