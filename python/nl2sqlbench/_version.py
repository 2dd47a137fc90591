"""The package's version; scripts/build-wheel.sh writes the release's into each wheel."""

__version__ = "0+source"
