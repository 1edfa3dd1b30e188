#!/usr/bin/env python3
"""sst_tamper.py -- a named adapter program with one fault in its files: it
runs the real adapter ($FILTERLAB_TAMPER_REAL, e.g. filterlab-slatedb),
passes every request and reply through unchanged, except that each
`sst_file ID` reply names a copy of the SST with one byte flipped (byte
$FILTERLAB_TAMPER_BYTE from the end, default 20: inside SlateDB's info
block or its checksum).  The engine's reads are untouched; only what
filterlab's own reader of the files sees is wrong, so the run must report
the SST (P6) -- the proof that filterlab reads every SST the engine writes.
For tests/cli/slatedb.sh; run with FILTERLAB_SLATEDB=this file.  Its copies
go in a directory under $TMPDIR, removed at the end -- but filterlab kills
an adapter with SIGKILL when it is done with it, so give it a TMPDIR that is
removed afterwards.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import threading

real = os.environ["FILTERLAB_TAMPER_REAL"]
back = int(os.environ.get("FILTERLAB_TAMPER_BYTE", "20"))
child = subprocess.Popen([real], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
scratch = tempfile.mkdtemp(prefix="fl-tamper-")
asked = threading.Event()        # the next reply is an sst_file's (nothing else is outstanding then)
copies = 0


def replies():
    global copies
    for line in child.stdout:
        if asked.is_set() and line.startswith(b"ok "):
            asked.clear()
            path = line[3:].rstrip(b"\n").decode()
            copies += 1
            copy = os.path.join(scratch, "%d.sst" % copies)
            shutil.copyfile(path, copy)
            with open(copy, "r+b") as f:
                f.seek(-back, os.SEEK_END)
                b = f.read(1)
                f.seek(-back, os.SEEK_END)
                f.write(bytes([b[0] ^ 0x01]))
            line = ("ok " + copy + "\n").encode()
        elif asked.is_set():
            asked.clear()
        sys.stdout.buffer.write(line)
        sys.stdout.buffer.flush()


t = threading.Thread(target=replies)
t.start()
try:
    for req in sys.stdin.buffer:
        if req.startswith(b"sst_file "):
            asked.set()
        child.stdin.write(req)
        child.stdin.flush()
    child.stdin.close()
    t.join()
finally:
    shutil.rmtree(scratch, ignore_errors=True)
sys.exit(child.wait())
