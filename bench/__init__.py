"""`make bench`: speed, memory and load figures for Rightsize (see bench/README.md)."""
