"""`make bench`: cronbell's performance figures, each measured against its floor in the same run.

Every `python -m bench.<part>` runs from the project root without PYTHONPATH: the functions' shared code
(`cronbell`, in the layer's source folder) is put on the path when the package is imported."""

import sys
from pathlib import Path

_LAYER_SOURCE = str(Path(__file__).resolve().parents[1] / "layers" / "common")
if _LAYER_SOURCE not in sys.path:
    sys.path.append(_LAYER_SOURCE)
