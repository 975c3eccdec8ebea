"""json_field.py: prints one top-level field of a JSON file, or of the last JSON line of a program's output."""
import json
import sys

with open(sys.argv[1]) as f:
    text = f.read()
try:
    doc = json.loads(text)
except ValueError:
    doc = json.loads([l for l in text.splitlines() if l.startswith("{")][-1])
print(doc[sys.argv[2]])
