"""Use cases: the tools and the fire path, composed from the core and the adapters."""
