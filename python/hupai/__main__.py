"""``python -m hupai``: the ``hupai`` command line."""

import sys

from .cli import main

sys.exit(main())
