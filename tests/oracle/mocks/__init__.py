"""Local stand-ins for the model APIs the runtimes speak, one module per API shape (standard
library only, listening on 127.0.0.1, recording every request body; tests/oracle/README.md)."""
