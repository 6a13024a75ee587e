"""Every public function and class has a docstring, and so has every public
method and property of a public class (issue 17). The public API is the list
in threes._api: each module's ``__all__``. A method that overrides a
documented method of a base class (Gymnasium's ``Env.reset``, pyspiel's
``State.legal_actions``) inherits that base's documentation, as
``inspect.getdoc`` and the API reference do. A data field (a dataclass
field, a ``__slots__`` entry) is documented by its class's docstring, which
must name it."""
import dataclasses
import importlib
import inspect
import re
import types

import pytest

from threes._api import PUBLIC_MODULES


def _module(name):
    m = importlib.import_module(name)
    assert getattr(m, "__all__", None), f"{name} has no __all__: its public names are not listed"
    return m


def _documented(obj) -> bool:
    doc = inspect.getdoc(obj)
    return bool(doc and doc.strip())


def _is_ours(obj) -> bool:
    return (getattr(obj, "__module__", None) or "").startswith("threes")


def _class_members(cls):
    """(name, member) for the public methods and properties a threes class
    defines itself (not those it inherits from outside threes)."""
    for name, raw in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(raw, (staticmethod, classmethod)):
            raw = raw.__func__
        if isinstance(raw, property) or inspect.isfunction(raw) or inspect.ismethoddescriptor(raw) \
                or inspect.isdatadescriptor(raw) or callable(raw) and not inspect.isclass(raw):
            if isinstance(raw, (int, float, str, bytes, tuple, list, dict, frozenset)):
                continue
            yield name, getattr(cls, name, raw)


def _public_objects():
    for mod_name in PUBLIC_MODULES:
        m = _module(mod_name)
        for name in m.__all__:
            yield mod_name, name, getattr(m, name)


def test_every_public_module_lists_its_names_and_has_a_docstring():
    for name in PUBLIC_MODULES:
        m = _module(name)
        assert _documented(m), f"module {name} has no docstring"
        missing = [n for n in m.__all__ if not hasattr(m, n)]
        assert not missing, f"{name}.__all__ names what the module does not have: {missing}"


def test_every_public_function_and_class_has_a_docstring():
    missing = []
    for mod_name, name, obj in _public_objects():
        if (inspect.isclass(obj) or inspect.isroutine(obj) or callable(obj)) and not inspect.ismodule(obj):
            if not _documented(obj):
                missing.append(f"{mod_name}.{name}")
    assert not missing, "public names without a docstring:\n  " + "\n  ".join(sorted(set(missing)))


def test_every_public_method_and_property_has_a_docstring():
    missing, checked = [], 0
    seen = set()
    for mod_name, name, obj in _public_objects():
        if not inspect.isclass(obj) or obj in seen:
            continue
        seen.add(obj)
        for cls in obj.__mro__:
            if not _is_ours(cls):
                continue
            fields = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
            for member_name, member in _class_members(cls):
                checked += 1
                raw = vars(cls)[member_name]
                if member_name in fields or isinstance(raw, types.MemberDescriptorType):
                    ok = re.search(rf"\b{member_name}\b", inspect.getdoc(cls) or "") is not None
                else:
                    ok = _documented(member)
                if not ok:
                    missing.append(f"{cls.__module__}.{cls.__qualname__}.{member_name}")
    assert checked > 200, f"only {checked} methods found: the walk over the public classes is broken"
    assert not missing, "public methods without a docstring:\n  " + "\n  ".join(sorted(set(missing)))


@pytest.mark.parametrize("mod_name", PUBLIC_MODULES)
def test_every_public_module_has_a_page_in_the_api_reference(mod_name):
    import pathlib

    pages = pathlib.Path(__file__).resolve().parent.parent / "docs" / "api"
    text = "\n".join(p.read_text() for p in sorted(pages.glob("*.md")))
    real = importlib.import_module(mod_name).__name__  # threes.svg is the module threes.ui.svg
    assert f"::: {real}\n" in text, f"no docs/api page renders {mod_name} (a '::: {real}' line)"
