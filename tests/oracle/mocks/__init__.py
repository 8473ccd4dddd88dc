"""Local stand-ins for the model APIs the runtimes call, by API shape (tests/oracle/README.md)."""
