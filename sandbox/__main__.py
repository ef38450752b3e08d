"""`python -m sandbox`: see sandbox/cli.py.

Run from the project root with the project's virtualenv, activated or not, and no PYTHONPATH: the
functions' shared code (`cronbell`, in the layer's source folder) is put on the path here, as `make`
does with PYTHONPATH. It is appended, so a PYTHONPATH that names another copy still wins."""

import sys
from pathlib import Path

_LAYER_SOURCE = str(Path(__file__).resolve().parents[1] / "layers" / "common")
if _LAYER_SOURCE not in sys.path:
    sys.path.append(_LAYER_SOURCE)

from sandbox.cli import main  # noqa: E402

raise SystemExit(main())
