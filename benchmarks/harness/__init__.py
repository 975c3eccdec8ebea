"""ompnuma.harness: the benchmark harness (`ompnuma bench`, benchmarks/run; README.md here)."""
