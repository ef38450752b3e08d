"""`python -m sandbox`: see sandbox/cli.py."""

from sandbox.cli import main

raise SystemExit(main())
