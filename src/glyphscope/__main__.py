"""`python -m glyphscope`: the inspector, as the `glyphscope` command opens it."""

from glyphscope.launcher import main

# The guard keeps a spawned worker process, which imports this module as __mp_main__, from
# opening a second window.
if __name__ == "__main__":
    raise SystemExit(main())
