"""script_helper.py: a module beside script.py, which ompnuma vm must find and ship with it."""
import hashlib


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]
