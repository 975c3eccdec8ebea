"""ompnuma.demo: the summary of the emulated placement demo (tools/demo/run.sh)."""
