"""The workbench in the browser (``hashi-asp serve``, with the ``web`` extra): :mod:`.api`, the
commands as JSON in and JSON out, apart from any framework; :mod:`.app`, the Starlette app that
serves them and the page in ``static/``."""
