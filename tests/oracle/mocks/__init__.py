"""Local stand-ins for the model APIs the runtimes speak, one module per API shape
(tests/oracle/README.md)."""
