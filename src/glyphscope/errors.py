"""Every error Glyphscope raises on bad input, each a subclass of GlyphscopeError.

The classes live in `glyphscope.core.errors`; this module is their public name, with the same
`__all__`, so the list is written once.
"""

from glyphscope.core.errors import *  # noqa: F403
from glyphscope.core.errors import __all__  # noqa: F401
