"""Checks the built API reference (mkdocs build: build/site) documents every
public name: each name in the ``__all__`` of each module of
threes._api.PUBLIC_MODULES must have its anchor (``id="module.name"``) on
the page of a module that exports the same object (``import threes`` re-
exports the Shithead API, documented under threes.shithead), or under the
module that defines it.

Usage: python docs/check_api.py [SITE_DIR]   (default build/site)
Exits 1 and lists what is missing."""
import html
import importlib
import inspect
import pathlib
import re
import sys

from threes._api import PUBLIC_MODULES


def main(site: pathlib.Path) -> int:
    pages = list(site.glob("api/**/*.html"))
    if not pages:
        print(f"no API pages under {site}: build the docs first (mkdocs build)")
        return 1
    anchors = set()
    for page in pages:
        anchors.update(html.unescape(a) for a in re.findall(r'id="([^"]+)"', page.read_text()))
    modules = {name: importlib.import_module(name) for name in PUBLIC_MODULES}
    missing, found = [], 0
    for name, module in modules.items():
        if module.__name__ not in anchors:
            missing.append(f"{name} (the module)")
        for member in module.__all__:
            obj = getattr(module, member)
            # documented under a public module that exports it (by the
            # module's real name: threes.svg is threes.ui.svg), under its
            # defining module, or (a module) on its own page
            homes = [f"{m.__name__}.{member}" for h, m in modules.items() if h != "threes"
                     and getattr(m, member, None) is obj]
            homes.append(f"{getattr(obj, '__module__', '')}.{getattr(obj, '__qualname__', member)}")
            if inspect.ismodule(obj):
                homes.append(obj.__name__)
            foreign = not (getattr(obj, "__module__", None) or "threes").startswith("threes")
            if foreign and re.search(rf"\b{member}\b", module.__doc__ or ""):
                found += 1  # a re-export of another library's object, named in the module's docstring
                continue
            if not any(h in anchors for h in homes):
                missing.append(f"{name}.{member}")
            else:
                found += 1
    if missing:
        print("not in the API reference:\n  " + "\n  ".join(missing))
        return 1
    print(f"API reference: {found} public names of {len(modules)} modules documented ({len(pages)} pages)")
    return 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "build/site")))
