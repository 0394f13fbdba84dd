"""Catalog vocabulary: the vehicles on the lot, how they are cooled, what CPU drives them."""

from django.db import models


class FormFactor(models.TextChoices):
    """The vehicle a GPU rides in (field guide: moped to freight train)."""

    PHONE = "phone", "Phone (moped)"
    LAPTOP = "laptop", "Laptop (motorcycle)"
    DESKTOP = "desktop", "Desktop (compact car)"
    WORKSTATION = "workstation", "Workstation (sedan / station wagon)"
    PCIE_SERVER = "pcie_server", "PCIe server (work van)"
    NVL8_SERVER = "nvl8_server", "8-GPU NVLink server (semi)"
    RACK_NVL72 = "rack_nvl72", "NVL72 rack (freight train)"


class Cooling(models.TextChoices):
    AIR = "air", "Air"
    LIQUID = "liquid", "Liquid only"
    AIR_OR_LIQUID = "air_or_liquid", "Air or liquid"


class CpuArch(models.TextChoices):
    X86 = "x86", "x86"
    ARM = "arm", "Arm"


class Interconnect(models.TextChoices):
    PCIE = "pcie", "PCIe only"
    NVLINK_BRIDGE = "nvlink_bridge", "NVLink bridge"
    NVLINK_SWITCH = "nvlink_switch", "NVLink switch"
    NVLINK_C2C = "nvlink_c2c", "NVLink-C2C (CPU to GPU)"
    #: AMD Instinct's scale-up fabric: 8 OAM GPUs on one baseboard, each joined to the other
    #: seven by xGMI links, one 8-GPU domain as an NVSwitch board is (but not NVLink).
    INFINITY_FABRIC = "infinity_fabric", "AMD Infinity Fabric (xGMI mesh)"
    #: Intel Gaudi's scale-up fabric: 8 OAM accelerators on one baseboard joined all-to-all by
    #: the RoCE (200 GbE) ports on each chip, one 8-accelerator domain (not NVLink).
    ROCE_MESH = "roce_mesh", "Intel Gaudi RoCE mesh (on-chip Ethernet, all-to-all)"


class PartKind(models.TextChoices):
    """What a quote line can be: a whole system, a GPU card, a bridge, or something else."""

    SYSTEM = "system", "System"
    CHASSIS = "chassis", "GPU-ready chassis"
    GPU_CARD = "gpu_card", "GPU card"
    BRIDGE = "bridge", "NVLink bridge"
    OTHER = "other", "Non-compute item"


class RentalTerm(models.TextChoices):
    ON_DEMAND = "on_demand", "on demand"
    SPOT = "spot", "spot"
    COMMITTED_1Y = "committed_1y", "committed, 1 year"
    COMMITTED_3Y = "committed_3y", "committed, 3 years"
