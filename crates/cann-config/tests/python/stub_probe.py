"""Runs emitted Estimator and TF2 snippets against stubs built from the spec's facts.

Input (stdin), JSON:
  "signatures": {class: [[param, default], ...]}   default: {"required": true} or a value
  "modules": [module, ...]                         the modules emitted imports name
  "tf2": {path: {"default": value, "values": [..] or null}}
  "cases": [{"id": .., "code": ..}]
Output (stdout): one object per case: the calls the code made (class and the arguments it
bound) and the TF2 options it set, or the exception it raised.

The stubs behave as the adapter's classes do where a script can tell: a constructor binds
its arguments like the real signature (TypeError on an unknown or missing one), and a TF2
option refuses a value outside its declared list (TypeError when the type differs from the
default's, ValueError otherwise) and an attribute it does not declare (ValueError).
"""
import inspect
import json
import sys
import traceback
import types

spec = json.load(sys.stdin)


def make_class(name, params):
    sig = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [
            inspect.Parameter(
                p,
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                default=inspect.Parameter.empty if isinstance(d, dict) and d.get("required") else d,
            )
            for p, d in params
        ]
    )

    def __init__(self, *args, **kwargs):
        bound = sig.bind(self, *args, **kwargs)
        self.bound = {k: v for k, v in bound.arguments.items() if k != "self"}

    return type(name, (), {"__init__": __init__, "__signature__": sig})


# Every module the emitted imports name (and its parent packages) holds every class.
classes = {cls: make_class(cls, params) for cls, params in spec["signatures"].items()}
for module in spec["modules"]:
    parts = module.split(".")
    for i in range(1, len(parts) + 1):
        name = ".".join(parts[:i])
        if name not in sys.modules:
            m = types.ModuleType(name)
            m.__path__ = []
            sys.modules[name] = m
            if i > 1:
                setattr(sys.modules[".".join(parts[: i - 1])], parts[i - 1], m)
    sys.modules[module].__dict__.update(classes)


class Option:
    def __init__(self, default, values):
        self.default, self.values, self.value, self.set = default, values, default, False

    def assign(self, v):
        if isinstance(self.values, list) and v not in self.values:
            if self.default is not None and not isinstance(v, type(self.default)):
                raise TypeError("Expected %s, got %s" % (type(self.default).__name__, type(v).__name__))
            raise ValueError("%r not in optional list %r" % (v, self.values))
        self.value, self.set = v, True

    def text(self):
        # What the adapter hands on: booleans as "1"/"0", everything else as str().
        if str(self.value) == "True":
            return "1"
        if str(self.value) == "False":
            return "0"
        return str(self.value)


class Node:
    def __init__(self, path):
        object.__setattr__(self, "_path", path)
        object.__setattr__(self, "_children", {})

    def __getattr__(self, name):
        children = object.__getattribute__(self, "_children")
        if name not in children:
            raise AttributeError("%s has no option %s" % (self._path or "global_options()", name))
        child = children[name]
        return child.value if isinstance(child, Option) else child

    def __setattr__(self, name, value):
        children = object.__getattribute__(self, "_children")
        if name not in children or not isinstance(children[name], Option):
            raise ValueError("%s has no option %s" % (self._path or "global_options()", name))
        children[name].assign(value)

    def collect(self, out):
        for name, child in self._children.items():
            if isinstance(child, Option):
                if child.set:
                    out[(self._path + "." if self._path else "") + name] = child.text()
            else:
                child.collect(out)


root = None


def reset():
    global root
    root = Node("")
    for path, facts in spec["tf2"].items():
        node = root
        parts = path.split(".")
        for i, part in enumerate(parts[:-1]):
            kids = object.__getattribute__(node, "_children")
            node = kids.setdefault(part, Node(".".join(parts[: i + 1])))
        object.__getattribute__(node, "_children")[parts[-1]] = Option(facts["default"], facts["values"])


class Opened:
    def as_default(self):
        return self


npu_device = types.ModuleType("npu_device")
npu_device.global_options = lambda: root
npu_device.open = lambda *a, **k: Opened()
sys.modules["npu_device"] = npu_device


def call_tree(obj):
    if hasattr(obj, "bound"):
        return {"class": type(obj).__name__, "args": {k: call_tree(v) for k, v in obj.bound.items()}}
    return obj


out = []
for case in spec["cases"]:
    reset()
    scope = {}
    try:
        exec(compile(case["code"], "<emitted>", "exec"), scope)
        tf2 = {}
        root.collect(tf2)
        out.append({"id": case["id"], "config": call_tree(scope.get("config")), "tf2": tf2})
    except Exception:  # reported with its case
        out.append({"id": case["id"], "error": traceback.format_exc()})
json.dump(out, sys.stdout)
