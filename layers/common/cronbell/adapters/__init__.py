"""Impure shell: small adapters around AWS, chat platforms, agents and the clock."""
