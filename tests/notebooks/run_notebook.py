"""Runs one lesson notebook in a real Jupyter kernel, as a learner's Jupyter would.

    /usr/bin/python3 tests/notebooks/run_notebook.py <file.ipynb> [<executed.ipynb>]

Validates it against nbformat's schema, counts its cells, then executes it top to bottom with
nbclient in the `python3` kernel (ipykernel), in a scratch folder, Matplotlib drawing with the
kernel's own inline backend (a figure is a PNG in the cell's outputs, as in Jupyter). With a
second path, writes the notebook there as it ran, outputs and all (for nbconvert).
Prints one line of JSON: {"ok", "markdown", "code", "seconds", "printed", "error"}; "printed" is
what the code cells printed (stdout, the last PRINTED_CHARS of it), "error" names the cell and gives
the traceback's last lines. What a kernel writes to stderr (debugger or tqdm warnings)
is not an error; an exception in a cell is. The JSON is the result (notebooks.test.js reads "ok").
"""
import json
import os
import re
import sys
import tempfile
import time

import nbformat
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError

CELL_TIMEOUT_S = 600
PRINTED_CHARS = 20000


def printed(notebook):
    """The stdout the notebook's code cells printed, in order."""
    text = "".join(
        output.get("text", "")
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if output.get("output_type") == "stream" and output.get("name") == "stdout"
    )
    return text[-PRINTED_CHARS:]


def main(path, executed=None):
    started = time.monotonic()
    result = {"ok": False, "markdown": 0, "code": 0, "seconds": 0.0, "printed": "", "error": ""}
    notebook = None
    try:
        notebook = nbformat.read(path, as_version=4)
        nbformat.validate(notebook)
        result["markdown"] = sum(c.cell_type == "markdown" for c in notebook.cells)
        result["code"] = sum(c.cell_type == "code" for c in notebook.cells)
        os.environ.pop("MPLBACKEND", None)  # the kernel's inline backend, as a learner's Jupyter has
        os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"
        with tempfile.TemporaryDirectory() as scratch:
            # The kernel talks over Unix sockets in the scratch folder, not TCP ports: a TCP port
            # is picked, closed, then bound by the kernel, and another kernel starting meanwhile
            # can take it ("Kernel died before replying to kernel_info"; two run at a time here).
            kernel = KernelManager(kernel_name="python3", transport="ipc", ip=os.path.join(scratch, "kernel"))
            client = NotebookClient(
                notebook,
                km=kernel,
                timeout=CELL_TIMEOUT_S,
                kernel_name="python3",
                resources={"metadata": {"path": scratch}},
            )
            client.execute()
        result["ok"] = True
    except (CellExecutionError, CellTimeoutError) as error:
        plain = re.sub(r"\x1b\[[0-9;]*m", "", str(error))  # the traceback's colours
        result["error"] = "\n".join(plain.strip().splitlines()[-12:])
    except Exception as error:  # a notebook that does not parse or validate, or a kernel that did not start
        result["error"] = f"{type(error).__name__}: {error}"
    if notebook is not None:
        result["printed"] = printed(notebook)
        if executed:
            os.makedirs(os.path.dirname(os.path.abspath(executed)), exist_ok=True)
            with open(executed, "w", encoding="utf-8") as out:
                nbformat.write(notebook, out)
    result["seconds"] = round(time.monotonic() - started, 2)
    print(json.dumps(result))


if __name__ == "__main__":
    main(*sys.argv[1:3])
