"""Sizing: the arithmetic behind every number a review shows, as small pure functions.

- `memory`: job memory (weights, KV cache, training state, LoRA/QLoRA, activations).
- `throughput`: the replica plan and the users the quote serves at a speed, built on
  `serving_load` (a load in bytes and FLOPs per token), `gpu_rates` (what one GPU reaches of
  its spec sheet) and `step_time` (the decode and prefill arithmetic, the bandwidth bound).
- `facility`: systems per rack, racks, rack kW, floor load, office circuits.
- `fp64`: the FP64 a fleet brings to a science job.
- `vehicle`: a quoted system joined to its catalog engine.

The recommendation engine reuses these to size a candidate the same way a quote is checked.
"""
