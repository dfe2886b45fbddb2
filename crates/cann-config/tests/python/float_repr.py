"""Reads a JSON list of float texts written by cannctl; prints, as JSON, those that Python's
repr would write differently (an empty list when every text is exactly Python's repr)."""
import json
import sys

texts = json.load(sys.stdin)
print(json.dumps([t for t in texts if repr(float(t)) != t]))
