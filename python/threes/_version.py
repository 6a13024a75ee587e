"""The version of threes-core: defined here and only here. The build reads it
(pyproject.toml: scikit-build-core's regex provider) for the distribution's
metadata; ``threes.__version__`` and ``threes --version`` import it."""
__version__ = "0.2.0"
