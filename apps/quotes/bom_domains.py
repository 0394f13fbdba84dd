"""The NVLink domain of a rack the quote sells whole.

A rack-scale system (GB200 / GB300 NVL72, Vera Rubin NVL72) is one NVLink domain across its
trays: the rack's 72 GPUs share the NVLink switch trays. A rack of HGX servers (Supermicro's
SuperCluster compute rack of 8 x HGX B200 nodes, a DGX B200 rack) is not: each node's 8 GPUs
are joined on their own board, and the rack's 64 GPUs are eight domains of 8.

Pure: no ORM, no Django.
"""

from __future__ import annotations

#: The GPU form factors whose NVLink reaches across the trays of a rack.
RACK_SCALE_FORMS = frozenset({"rack_nvl72"})


def rack_domain(gpus: int, gpu_domain: int, gpu_form_factor: str) -> int:
    """The NVLink domain of a rack of ``gpus`` GPUs whose GPU joins ``gpu_domain`` on its own:
    the whole rack for a rack-scale GPU (at least its NVL72 domain), the GPU's own board
    (8 for an HGX B200) for a rack of servers."""
    if gpu_form_factor in RACK_SCALE_FORMS:
        return max(gpus, gpu_domain)
    return max(1, gpu_domain)
