"""`python -m tools.flash`: the flash tool (see tools/flash/__init__.py)."""

import sys

from .cli import main

sys.exit(main())
