// The TTIR stock triton 3.9 prints for the kernel zoo (test/corpus) parses, verifies and prints
// back identically: without locations, with locations, capability-90 TTIR (tensor descriptors),
// TTIR Inductor generated, and the TTGIR of triton's NVIDIA sm_80 pipeline.
// RUN: %python %S/../../corpus/check_roundtrip.py tritium-opt ttir
// RUN: %python %S/../../corpus/check_roundtrip.py tritium-opt ttir_sm90
// RUN: %python %S/../../corpus/check_roundtrip.py tritium-opt ttir_loc --locations
// RUN: %python %S/../../corpus/check_roundtrip.py tritium-opt inductor --split
// RUN: %python %S/../../corpus/check_roundtrip.py tritium-opt ttgir/sm80
