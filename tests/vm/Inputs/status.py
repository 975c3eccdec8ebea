"""status.py CMD...: run CMD with this process's stdin/stdout/stderr, then print "status=N" (N = its exit status, 128+n if killed)."""
import subprocess
import sys

code = subprocess.call(sys.argv[1:])
sys.stdout.write("status={}\n".format(128 - code if code < 0 else code))
