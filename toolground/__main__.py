"""``python -m toolground`` is the same as the ``toolground`` console script."""

import sys

from toolground.cli import main

sys.exit(main())
