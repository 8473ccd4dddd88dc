"""Runtime adapters of the differential harness (tests/oracle/README.md)."""
