#!/usr/bin/env python3
"""lit_summary: print the suite's closing line 'N passed, M failed[, K skipped]' from lit's JSON results."""
import json
import sys

# FLAKYPASS: passed on a retry its ALLOW_RETRIES permitted.
PASS = {"PASS", "XFAIL", "FLAKYPASS"}
SKIP = {"UNSUPPORTED", "SKIPPED", "EXCLUDED"}


def main(path):
    try:
        with open(path) as f:
            tests = json.load(f).get("tests", [])
    except (OSError, ValueError) as e:
        print("lit_summary: no results in {}: {}".format(path, e), file=sys.stderr)
        print("0 passed, 1 failed")
        return 1
    passed = sum(1 for t in tests if t["code"] in PASS)
    skipped = sum(1 for t in tests if t["code"] in SKIP)
    failed = len(tests) - passed - skipped
    print("{} passed, {} failed, {} skipped".format(passed, failed, skipped))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
