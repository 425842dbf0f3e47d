"""memory-service: long-term memory lifecycle for LLM agents.

Layers point inward: ``core`` (pure, standard library only) <- ``services`` (use cases)
<- ``adapters`` / ``api`` / ``workers`` (the outside world). ``bootstrap`` wires them.
"""

__version__ = "0.1.0"
