"""The pure detection core's shared shapes: the detector protocol and event-time helpers.

Nothing here (or in any detector) imports Kafka, Faust or ClickHouse: only ``schemas`` and
the standard library, so that ``faultline replay`` and the Faust agents run the same logic.
"""
