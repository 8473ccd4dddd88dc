"""The runtime adapters of the differential harness (tests/oracle/README.md): one module per
runtime, each implementing `base.RuntimeAdapter`."""
