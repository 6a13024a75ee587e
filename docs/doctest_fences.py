"""A griffe extension for the API reference (mkdocs.yml): the interactive
examples in the docstrings (``>>>`` lines, their ``...`` continuations and
the output after them) are shown as Python console code blocks, not read as
Markdown (where ``>>>`` would start a quotation)."""
import griffe


def fence_examples(text: str) -> str:
    out, block = [], None
    for line in text.splitlines():
        stripped = line.lstrip()
        if stripped.startswith(">>>"):
            if block is None:
                indent = line[: len(line) - len(stripped)]
                out += ([""] if out and out[-1].strip() else []) + [indent + "```pycon"]
                block = indent
            out.append(line)
        elif block is not None and stripped and (stripped.startswith("...") or line.startswith(block)):
            out.append(line)  # a continuation, or output
        else:
            if block is not None:
                out.append(block + "```")
                block = None
            out.append(line)
    if block is not None:
        out.append(block + "```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    def on_instance(self, *, node, obj, agent, **kwargs):
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_examples(obj.docstring.value)
