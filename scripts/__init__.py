"""Developer scripts run with ``python -m scripts.<name>`` (the offline demo is ``scripts.demo``)."""
