"""python -m threes: the same command line as the ``threes`` script (threes.cli)."""
import sys

from threes.ui.cli import main

if __name__ == "__main__":
    sys.exit(main())
