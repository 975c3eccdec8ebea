"""debuginfod_stand_in.py -- COMMAND...: runs COMMAND with DEBUGINFOD_URLS naming a local HTTP server that
answers every request with 404, a debuginfod server that has nothing; prints how many requests it got."""
import http.server
import os
import subprocess
import sys
import threading

got = []


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        got.append(self.path)
        self.send_response(404)
        self.end_headers()

    def log_message(self, *args):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
env = dict(os.environ, DEBUGINFOD_URLS="http://127.0.0.1:%d" % server.server_address[1])
rc = subprocess.run(sys.argv[sys.argv.index("--") + 1:], env=env, stdout=subprocess.DEVNULL).returncode
server.shutdown()
print("status", rc, "requests", len(got), " ".join(got))
