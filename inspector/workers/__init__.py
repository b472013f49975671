"""What the worker processes run (render, analysis, QA) and the pages made ahead."""
