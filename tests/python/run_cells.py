"""Runs the lessons' code cells as a learner would paste them into Python.

Reads jobs on stdin, one JSON object per line, each {"key": ..., "programs":
[code, ...], "timeout": seconds}: the programs run in order in one fresh
namespace (the cells a cell needs first, then the cell itself). Writes one JSON
line per job to stdout as it finishes, in the order they finish: {"key", "ok",
"error", "message", "traceback", "output", "seconds"}. Exits once stdin is closed
and every job has been reported.

NumPy, PyTorch and Matplotlib are imported once, here; each job then runs in a
process forked from this one (a fresh interpreter state for every cell, without
paying the imports again), at most CODE_CELLS_PROCESSES (default 2) at a time.
A job that outlives its timeout is killed; one whose process dies is reported
as such.

What a learner's setup has and this machine may lack is supplied here, nothing
else: Matplotlib draws with the Agg backend (plt.show() returns at once), no
socket may connect anywhere, and on PyTorch < 2.0 (no
F.scaled_dot_product_attention) that function is the reference semantics that
PyTorch 2 documents: web/src/shell/sdpa_reference.py, the cell every lesson
notebook carries.
"""

import contextlib
import io
import json
import linecache
import multiprocessing
import os
import select
import signal
import socket
import time
import traceback

os.environ["MPLBACKEND"] = "Agg"

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy  # noqa: E402,F401 - imported once, for every cell
import scipy.spatial  # noqa: E402,F401
import torch  # noqa: E402,F401 - imported once, for every cell (and patched by the reference below)


def _no_network(*args, **kwargs):
    raise OSError("the code-cell runner allows no network access")


socket.socket.connect = _no_network
socket.socket.connect_ex = _no_network
socket.create_connection = _no_network


# The reference every lesson notebook carries (web/src/shell/sdpa_reference.py), run here once.
SDPA_REFERENCE = os.path.join(os.path.dirname(__file__), "..", "..", "web", "src", "shell", "sdpa_reference.py")
with open(SDPA_REFERENCE, encoding="utf-8") as _reference:
    exec(compile(_reference.read(), SDPA_REFERENCE, "exec"), {"__name__": "sdpa_reference"})


class CellTimeout(Exception):
    pass


def _on_alarm(signum, frame):
    raise CellTimeout("the cell ran longer than its time limit")


signal.signal(signal.SIGALRM, _on_alarm)


def tail(text, lines=12):
    return "\n".join(text.rstrip("\n").split("\n")[-lines:])


def run(job):
    out = io.StringIO()
    namespace = {"__name__": "__main__"}
    started = time.monotonic()
    result = {"key": job["key"], "ok": True, "error": None, "message": None, "traceback": None}
    signal.alarm(max(1, int(job.get("timeout", 120))))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            for index, code in enumerate(job["programs"]):
                name = f"<cell {index + 1} of {len(job['programs'])}>"
                linecache.cache[name] = (len(code), None, code.splitlines(True), name)  # lines in tracebacks
                exec(compile(code, name, "exec"), namespace)
    except BaseException as error:  # noqa: BLE001 - everything a cell raises is reported
        if isinstance(error, KeyboardInterrupt):
            raise
        result.update(
            ok=False,
            error=type(error).__name__,
            message=str(error),
            traceback=tail("".join(traceback.format_exception(type(error), error, error.__traceback__.tb_next))),
        )
    finally:
        signal.alarm(0)
        plt.close("all")
    result["output"] = tail(out.getvalue())
    result["seconds"] = round(time.monotonic() - started, 3)
    return result


KILL_GRACE_S = 30  # past a job's own alarm, before its process is killed
RESULT_CHARS = 20000  # a result's texts are cut to this, so one line stays small


def failure(job, error, message):
    return {"key": job["key"], "ok": False, "error": error, "message": message, "traceback": None, "output": ""}


def send_result(job, fd):
    """In a forked child: runs `job` and writes its result to `fd`. Whatever stops the writing
    propagates: multiprocessing then prints its traceback and ends the process with status 1, and
    the parent reports the job (status 0: the result was written)."""
    result = run(job)
    for field in ("message", "traceback", "output"):
        if isinstance(result[field], str):
            result[field] = result[field][-RESULT_CHARS:]
    view = memoryview(json.dumps(result).encode())
    while view:
        view = view[os.write(fd, view) :]


def child_main(job, read_end, write_end):
    """The forked process of one job: runs it and sends its result (see send_result)."""
    os.close(read_end)
    send_result(job, write_end)


# Each job runs in a process forked from this one (multiprocessing's fork start method, which ends
# the child without running the parent's clean-up), so it starts with every import already done.
FORK = multiprocessing.get_context("fork")


class Child:
    """One job running in a forked process; its result comes back through a pipe."""

    def __init__(self, job):
        self.job = job
        self.started = time.monotonic()
        self.deadline = self.started + max(1, int(job.get("timeout", 120))) + KILL_GRACE_S
        self.data = b""
        read_end, write_end = os.pipe()
        self.process = FORK.Process(target=child_main, args=(job, read_end, write_end))
        self.process.start()
        os.close(write_end)
        self.fd = read_end

    def finish(self):
        """The job's result once its pipe has closed (the process has ended)."""
        os.close(self.fd)
        self.process.join()
        if self.data:
            return json.loads(self.data)
        code = self.process.exitcode
        how = f"signal {-code}" if code < 0 else f"exit status {code}"
        return failure(self.job, "ProcessDied", f"the Python process running this cell ended with {how}")

    def kill(self):
        self.process.kill()
        os.close(self.fd)
        self.process.join()
        return failure(self.job, "CellTimeout", "the cell ran longer than its time limit and was stopped")


def main():
    # Results go to the original stdout; anything else written to file
    # descriptor 1 (native code printing directly) goes to stderr instead.
    results = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    slots = max(1, int(os.environ.get("CODE_CELLS_PROCESSES", "2")))
    waiting, running, pending, stdin_open = [], {}, b"", True

    def report(result):
        results.write(json.dumps(result) + "\n")
        results.flush()

    while stdin_open or waiting or running:
        while waiting and len(running) < slots:
            child = Child(waiting.pop(0))
            running[child.fd] = child
        watched = list(running) + ([0] if stdin_open else [])
        timeout = max(0, min(c.deadline for c in running.values()) - time.monotonic()) if running else None
        ready, _, _ = select.select(watched, [], [], timeout)
        for fd in ready:
            if fd == 0:
                chunk = os.read(0, 1 << 16)
                stdin_open = bool(chunk)
                *lines, pending = (pending + (chunk or b"\n")).split(b"\n")  # at the end, the last line too
                waiting += [json.loads(line) for line in lines if line.strip()]
                continue
            child = running[fd]
            chunk = os.read(fd, 1 << 16)
            child.data += chunk
            if not chunk:
                report(child.finish())
                del running[fd]
        for fd, child in list(running.items()):
            if time.monotonic() > child.deadline:
                report(child.kill())
                del running[fd]


if __name__ == "__main__":
    main()
