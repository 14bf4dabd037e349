"""Explicit-fault classification: a knowledge base of log-line rules, a fast pure classifier,
and a burst-folding detector that turns classified lines into ``fault`` events.

Layout (one concern per module):

- ``kb.yaml`` / ``xid_catalog.yaml``: the knowledge base, as data.
- ``model``: the typed, immutable knowledge-base model (pure).
- ``kb``: loads and validates the YAML (the only module that reads files).
- ``classifier``: line -> :class:`~streams.classify.model.Classification` or ``None`` (pure).
- ``detector``: the :class:`~streams.core.detector.Detector` for ``log_line`` events (pure).
- ``settings``: :class:`ClassifySettings`, the detector's validated settings.
- ``cli`` and ``bench``: the ``faultline classify`` / ``faultline kb check`` entry points and the benchmark.
"""
