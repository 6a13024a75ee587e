"""User interfaces over the engine: text (threes.ui.text), SVG pictures
(threes.ui.svg, also importable as threes.svg) and the command line
(threes.ui.cli). Nothing here is imported by ``import threes``."""
