"""The package is typed: py.typed is installed, and the stub says what the module does, with
the module's own docstrings."""

import ast
import inspect
from pathlib import Path

import cannctl

PKG = Path(cannctl.__file__).parent


def stub():
    tree = ast.parse((PKG / "__init__.pyi").read_text(encoding="utf-8"))
    return {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}


def test_py_typed_and_the_stub_are_installed():
    assert (PKG / "py.typed").exists()
    assert (PKG / "__init__.pyi").exists()


def test_every_public_name_has_a_stub():
    names = set(stub())
    assert set(cannctl.__all__) - {"__version__", "__spec_release__"} == names


def test_docstrings_are_the_modules_own():
    for name, node in stub().items():
        obj = getattr(cannctl, name)
        assert ast.get_docstring(node, clean=True) == inspect.cleandoc(obj.__doc__), name
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and ast.get_docstring(item):
                    runtime = inspect.getdoc(getattr(obj, item.name))
                    assert ast.get_docstring(item) == runtime, f"{name}.{item.name}"


def test_signatures_match():
    for name, node in stub().items():
        if not isinstance(node, ast.FunctionDef):
            continue
        sig = inspect.signature(getattr(cannctl, name))
        a = node.args
        stubbed = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]
        if a.kwarg:
            stubbed.append(a.kwarg.arg)
        runtime = [p for p in sig.parameters]
        assert sorted(stubbed) == sorted(runtime), name
        kw_only = {p.name for p in sig.parameters.values() if p.kind == p.KEYWORD_ONLY}
        assert {p.arg for p in a.kwonlyargs} == kw_only, name
