"""print-names.py: one line per region of a report: its symbol and the base name of its source (file:line), or None."""
import json
import os
import sys

for region in json.load(open(sys.argv[1]))["regions"]:
    source = region.get("source")
    print(region["symbol"], os.path.basename(source) if source else None)
