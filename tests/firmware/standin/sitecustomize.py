"""Start the spidev stand-in in any Python run with this folder on PYTHONPATH and
``SPIDEV_STANDIN`` set (the lgpio stand-in beside it needs nothing: it is imported as
``lgpio``)."""

import os

if os.environ.get("SPIDEV_STANDIN"):
    import spidev_standin

    spidev_standin.activate()
