"""Fuzzing the engine: hypothesis tests in the default run (test_fuzz.py, small budget), a
long campaign with `python -m tests.fuzz --minutes N`, and the regression files both replay
(tests/fuzz/regressions/). Every input runs bounded in time and memory."""
