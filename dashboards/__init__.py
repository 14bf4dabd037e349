"""Dashboards as code and the static HTML report, both from one set of panel SQL.

    queries.py    every panel's SQL (Grafana ClickHouse plugin macros), with the shape it returns
    macros.py     the plugin's macro expansion, for the report and the tests
    panels.py     typed Grafana dashboard model -> dashboard JSON
    boards.py     the four dashboards: fleet ETT, job drill-down, fault explorer, pipeline health
    grafana.py    pure builders of provisioning files and HTTP API payloads
    provision.py  ``export`` (files) and ``push`` (grafana-client)
    check.py      run every panel's SQL against a database and report its shape
    figures.py    plotly figures of the report
    report.py     the self-contained HTML report
    cli.py        ``faultline report`` and ``faultline dashboards``
"""
