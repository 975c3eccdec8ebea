"""json_field.py: prints one top-level field of a JSON file (the last JSON line when the file holds program output)."""
import json
import sys

with open(sys.argv[1]) as f:
    lines = [l for l in f.read().splitlines() if l.startswith("{")]
print(json.loads(lines[-1])[sys.argv[2]])
