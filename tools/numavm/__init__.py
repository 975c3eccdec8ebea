"""ompnuma.numavm: the NUMA virtual machine harness (`ompnuma vm`, tools/numavm/README.md) and the emulator's counts reader (numavm_emu)."""
