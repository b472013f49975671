"""glyphscope-sweep: run the engine over a corpus of PDFs, keep every page's figures and texts in
SQLite, compare two rule sets, rank what a person should look at, and report it.

sources (what to read) → jobs (what one document asks) → extract (the engine on one document,
in a worker) → isolation (the worker process, its limits and outcomes) → local / dask_backend
(many workers) → store (SQLite, the one writer) → run (the sweep: skip done, progress, Ctrl+C)
→ ranking, report (one self-contained HTML file). Nothing here imports Qt.
"""
