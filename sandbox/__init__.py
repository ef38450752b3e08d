"""The local AWS sandbox: the whole cronbell stack on loopback, for development, the demo and the tests."""
