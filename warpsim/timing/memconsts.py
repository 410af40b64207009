"""Integer constants of the memory system: access kinds, packet layout, policy codes, fixed sizes.

Numba freezes module globals at compile time, so everything here is a plain ``int``; jitted code
imports the names it uses (STYLE.md §2.4).

Follows: docs/dev-contracts.md "Timing engine" (the ``MEM_*`` kinds), GPGPU-Sim 3.x
``mem_fetch`` packet sizes and ``-gpgpu_mem_addr_mapping dramid@8`` (256 B channel interleave).
Assumptions: the constants tagged [A] below stand for configuration fields that
``warpsim/arch/memory.py`` does not have (yet); docs/memory-model.md lists them.
"""

from __future__ import annotations

__all__ = [
    "AP_ON_FILL", "AP_ON_MISS", "AP_STREAMING",
    "ARB_FIXED", "ARB_ROUND_ROBIN",
    "C_MEM_FIRST", "C_MEM_LAST",
    "DOM_DRAM", "DOM_ICNT", "DOM_L2", "N_DOMAINS",
    "DS_FIFO", "DS_FRFCFS",
    "FAULT_BAD_KIND", "FAULT_BAD_SECTORS", "FAULT_BAD_SM", "FAULT_NEGATIVE_ADDRESS",
    "FAULT_NONE", "N_FAULT_FIELDS",
    "ICNT_ARBITRATION", "INT64_MAX",
    "L1_C", "L1_D", "L1_T", "N_L1_KINDS",
    "LS_INVALID", "LS_MODIFIED", "LS_RESERVED", "LS_VALID",
    "MEM_ATOMIC", "MEM_CHANNEL_INTERLEAVE_BYTES", "MEM_CTRL_BYTES", "MEM_LD_CONST",
    "MEM_LD_GLOBAL", "MEM_LD_LOCAL", "MEM_LD_TEX", "MEM_ST_GLOBAL", "MEM_ST_LOCAL",
    "N_MEM_KINDS", "SECTOR_BYTES", "TRACE_LINE_BYTES",
    "PK_ATOMIC", "PK_GROUP", "PK_READ", "PK_WRITE",
    "REPL_FIFO", "REPL_LRU",
    "SI_FERMI_HASH", "SI_IPOLY", "SI_LINEAR", "SI_XOR",
    "SRC_BYPASS", "SRC_NONE",
    "WA_FETCH_ON_WRITE", "WA_LAZY_FETCH_ON_READ", "WA_NO_WRITE_ALLOCATE", "WA_WRITE_ALLOCATE",
    "WP_LOCAL_WB_GLOBAL_WT", "WP_READ_ONLY", "WP_WRITE_BACK", "WP_WRITE_EVICT",
    "WP_WRITE_THROUGH",
]

INT64_MAX = 9223372036854775807
"""``mem_next_event`` when nothing is in flight."""

# -- access kinds offered by the SM's LD/ST unit (docs/dev-contracts.md) ----------------------
MEM_LD_GLOBAL = 0
MEM_ST_GLOBAL = 1
MEM_LD_LOCAL = 2
MEM_ST_LOCAL = 3
MEM_LD_CONST = 4
MEM_LD_TEX = 5
MEM_ATOMIC = 6
N_MEM_KINDS = 7

TRACE_LINE_BYTES = 128
"""Line size of the trace's addresses (docs/trace-format.md)."""
SECTOR_BYTES = 32
"""Sector size of the trace's ``n_sectors``."""

# -- the three L1 caches of an SM: L1 cache id = sm * N_L1_KINDS + kind -----------------------
L1_D = 0
L1_C = 1
L1_T = 2
N_L1_KINDS = 3
SRC_BYPASS = 3
"""Packet source: a request that skipped the L1s (atomics, ``l1d.bypass_global`` loads)."""
SRC_NONE = 4
"""Packet source: an L2 write-back (no reply)."""

# -- packet types ------------------------------------------------------------------------------
PK_READ = 0
PK_WRITE = 1
PK_ATOMIC = 2
PK_GROUP = 3
"""A read of several L1 lines of one aligned group (the fetch-group seam): ``Q_ADDR`` is its
lowest line, the slot field the mask of its lines (bit k: that line + k lines), the bytes field
all its lines' bytes."""

# -- line states in ``tag_state[cache, set, way]`` ---------------------------------------------
LS_INVALID = 0
LS_VALID = 1
LS_RESERVED = 2
"""Allocated on a miss, fill pending (GPGPU-Sim RESERVED)."""
LS_MODIFIED = 3
"""Valid and dirty (write-back caches)."""

# -- sector bits in ``tag_sec[cache, set, way]`` (sectored caches) -----------------------------
SEC_MASK = 0xFF
"""Bits 0-7: valid sectors (bit i = sector i of the line)."""
SEC_PEND_SHIFT = 8
"""Bits 8-15: sectors whose fill is pending (the line cannot be evicted)."""
SEC_DIRTY_SHIFT = 16
"""Bits 16-23: dirty sectors (written back on eviction, 32 B each)."""

# -- policy codes (the order of the enums in warpsim/arch/policies.py) -------------------------
REPL_LRU = 0
REPL_FIFO = 1
WP_READ_ONLY = 0
WP_WRITE_BACK = 1
WP_WRITE_THROUGH = 2
WP_WRITE_EVICT = 3
WP_LOCAL_WB_GLOBAL_WT = 4
AP_ON_MISS = 0
AP_ON_FILL = 1
AP_STREAMING = 2
WA_NO_WRITE_ALLOCATE = 0
WA_WRITE_ALLOCATE = 1
WA_FETCH_ON_WRITE = 2
WA_LAZY_FETCH_ON_READ = 3
SI_LINEAR = 0
SI_FERMI_HASH = 1
SI_IPOLY = 2
SI_XOR = 3
DS_FIFO = 0
DS_FRFCFS = 1
ARB_FIXED = 0
ARB_ROUND_ROBIN = 1

# -- clock domains (index of ``clk_num`` / ``clk_den``) ----------------------------------------
DOM_ICNT = 0
DOM_L2 = 1
DOM_DRAM = 2
N_DOMAINS = 3

# -- faults: ``fault[0:4] = (code, sm, kind, line_addr)``, the first one wins ------------------
FAULT_NONE = 0
FAULT_BAD_KIND = 1
FAULT_BAD_SECTORS = 2
FAULT_BAD_SM = 3
FAULT_NEGATIVE_ADDRESS = 4
N_FAULT_FIELDS = 4

# -- counters that mem_access buffers until the next tick (columns of warpsim.stats) ------------
C_MEM_FIRST = 43
"""First memory-side column of ``counters`` (``C_GPGPU_N_LOAD_INSN``); a test checks it."""
C_MEM_LAST = 94
"""One past the last memory-side column (``N_COUNTERS``; the engine's columns 86-89 in the
range stay 0 in the buffer)."""

# -- [A] values that have no configuration field -----------------------------------------------
MEM_CTRL_BYTES = 8
"""[A] Header bytes of every packet (GPGPU-Sim READ_PACKET_SIZE / WRITE_PACKET_SIZE = 8): a read
request is one flit, a 128 B reply is ceil(136 / flit_bytes) flits."""
MEM_CHANNEL_INTERLEAVE_BYTES = 256
"""[A] Channel interleaving granularity of the linear mapping (``dram.addr_mapping`` empty; the
GTX480's ``-gpgpu_mem_addr_mapping dramid@8``)."""
ICNT_ARBITRATION = ARB_ROUND_ROBIN
"""[A] Crossbar output arbitration (iSLIP-like round robin; the pointer is derived from the
interconnect clock, so idle skipping cannot change it)."""

# -- indices of ``MemState.p`` (parameters from the configuration) -----------------------------
P_N_SMS = 0
P_N_SLICES = 1
P_N_CHANNELS = 2
P_SLICES_PER_CHANNEL = 3
P_ICNT_LATENCY = 4
P_FLIT_BYTES = 5
P_ROP_LATENCY = 6
P_DRAM_LATENCY = 7
P_N_BANKS = 8
P_N_BANK_GROUPS = 9
P_ROW_BYTES = 10
P_BURST_TICKS = 11
P_ATOM_BYTES = 12
P_T_CCD = 13
P_T_RRD = 14
P_T_RCD = 15
P_T_RAS = 16
P_T_RP = 17
P_T_RC = 18
P_T_CL = 19
P_T_WL = 20
P_T_CDLR = 21
P_T_WR = 22
P_T_CCDL = 23
P_T_RTPL = 24
P_DRAM_SCHED = 25
P_BYPASS_GLOBAL = 26
P_ICNT_ARB = 27
P_L2_LINE_BYTES = 28
P_L2_BASE = 29
"""Cache id of L2 slice 0 in ``MemState.caches`` (= n_sms x N_L1_KINDS)."""
P_CHAN_SHIFT = 30
"""Channels interleave every ``1 << p[P_CHAN_SHIFT]`` bytes (``dramid@K``; 8 when linear)."""
P_BANK_MASK = 31
"""Bank bits of the in-channel address (``dram.addr_mapping``); 0 = the linear mapping."""
P_ROW_MASK = 32
"""Row bits of the in-channel address (with ``P_BANK_MASK``)."""
P_T_RTW = 33
"""Read-to-write turnaround ``tCL + burst + 2 - tWL`` (GPGPU-Sim ``tRTW``; 0 with
``dram.rw_turnaround`` off)."""
P_T_WTR = 34
"""Write-to-read turnaround ``tWL + burst + tCDLR`` (GPGPU-Sim ``tWTR``; 0 likewise)."""
P_T_WTP = 35
"""Write to PRECHARGE ``tWL + burst + tWR`` (GPGPU-Sim ``tWTP``)."""
P_T_RCDWR = 36
"""ACTIVATE to write column command ``tRCD - (tWL + 1)`` (GPGPU-Sim ``tRCDWR``)."""
P_ROP_ENTRIES = 37
"""``l2.rop_queue_entries``: sector requests the slice's queue after the ROP delay holds
(GPGPU-Sim's icnt_L2 queue); the ring ``MemState.rop`` is longer by the delay line."""
P_L1_LATQ = 38
"""Slots of each SM's L1 latency queue (``l1d.hit_latency_cycles`` with ``l1d.latency_queue``;
0: no queue, the L1D is looked up when the LD/ST unit offers the access)."""
N_PARAMS = 39

# -- indices of ``MemState.act`` (items in flight per structure, for cheap idle checks) --------
A_L1_MQ = 0
A_ROP = 1
A_L2_MQ = 2
A_DRAM_Q = 3
A_DRAM_RET = 4
A_L2_RQ = 5
A_EJECT = 6
A_COMPLETIONS = 7
A_MSHR = 8
A_BYPASS = 9
A_L1_LQ = 10
N_ACT = 11

__all__ += [
    "A_BYPASS", "A_COMPLETIONS", "A_DRAM_Q", "A_DRAM_RET", "A_EJECT", "A_L1_LQ", "A_L1_MQ",
    "A_L2_MQ", "A_L2_RQ", "A_MSHR", "A_ROP", "N_ACT", "N_PARAMS",
    "P_ATOM_BYTES", "P_BANK_MASK", "P_L1_LATQ", "P_ROP_ENTRIES", "P_T_RCDWR", "P_T_RTW",
    "P_T_WTP", "P_T_WTR",
    "P_BURST_TICKS", "P_CHAN_SHIFT", "P_ROW_MASK",
    "P_BYPASS_GLOBAL", "P_DRAM_LATENCY", "P_DRAM_SCHED",
    "P_FLIT_BYTES", "P_ICNT_ARB", "P_ICNT_LATENCY", "P_L2_BASE", "P_L2_LINE_BYTES", "P_N_BANKS",
    "P_N_BANK_GROUPS", "P_N_CHANNELS", "P_N_SLICES", "P_N_SMS", "P_ROP_LATENCY", "P_ROW_BYTES",
    "P_SLICES_PER_CHANNEL", "P_T_CCD", "P_T_CCDL", "P_T_CDLR", "P_T_CL", "P_T_RAS", "P_T_RC",
    "P_T_RCD", "P_T_RP", "P_T_RRD", "P_T_RTPL", "P_T_WL", "P_T_WR",
]

# -- field indices of the grouped state arrays (memstate.py) -----------------------------------
# cache geometry: geo[cache, G_*]
G_N_SETS = 0
G_WAYS = 1
G_LINE_SHIFT = 2
G_SET_FN = 3
G_REPL = 4
G_WRITE_POLICY = 5
G_ALLOC_POLICY = 6
G_WRITE_ALLOC = 7
G_MSHR_ENTRIES = 8
G_MSHR_MAX_MERGE = 9
G_MQ_ENTRIES = 10
G_HIT_LATENCY = 11
G_SECTOR_SHIFT = 12
"""log2 of the sector size; equal to ``G_LINE_SHIFT`` for an unsectored cache."""
G_PART_CHAN_SHIFT = 13
"""L2 slices: the set index comes from the address inside the slice (channel and slice bits
removed, GPGPU-Sim ``l2_cache_config::set_index``): channels interleave every ``1 << this``
bytes; 0 for the L1s (set index from the address itself)."""
G_PART_N_CHANNELS = 14
"""L2 slices: DRAM channels (for the partition address)."""
G_PART_SPC = 15
"""L2 slices: slices per channel (the linear mapping's slice digit at line granularity)."""
G_PART_SUB_MASK = 16
"""L2 slices with ``dram.addr_mapping``: the address bits that pick the slice in its channel
(the bank's low bits), removed from the set index; 0 with the linear mapping."""
N_GEOM = 17
# per-cache counters: cnt[cache, K_*]
K_USE_CLOCK = 0
K_MSHR_USED = 1
K_MQ_HEAD = 2
K_MQ_COUNT = 3
K_MSHR_LOW_FREE = 4
"""Lowest free MSHR entry (``G_MSHR_ENTRIES`` when all are busy): the one ``mshr_alloc``
takes."""
N_CACHE_SCALARS = 5
# packet queue entries: q[owner, slot, Q_*]
Q_ADDR = 0
Q_INFO = 1
Q_READY = 2
"""Core cycle from which the consumer may take the entry (the arrival order in the DRAM
scheduler queue, -1 = empty entry)."""
N_Q_FIELDS = 3
# the DRAM scheduler queue's entries carry their bank and row too: dq[channel, entry, D_*]
D_BANK = 3
"""Bank of the entry's address (``l2.addr_bank``, computed once when it enters the queue)."""
D_ROW = 4
"""Row of the entry's address (``l2.addr_row``)."""
N_DQ_FIELDS = 5
# completion entries: hq[sm, kind, slot, T_*], fq[sm, slot, T_*]
T_TOKEN = 0
T_READY = 1
N_T_FIELDS = 2
# ring heads: hq_hc[sm, kind, RB_*]
RB_HEAD = 0
RB_COUNT = 1
# per-SM scalars: sm_s[sm, S_*]
S_PORT_CYCLE = 0
S_BYP_USED = 1
S_FQ_HEAD = 2
S_FQ_COUNT = 3
S_EJ_HEAD = 4
S_EJ_COUNT = 5
S_REQ_IN_BUSY = 6
S_REP_OUT_BUSY = 7
S_PEND_ANY = 8
S_GROUP_LINES = 9
"""Lines per aligned fetch group of the SM's L1D global-load misses (0 or 1: the line alone)."""
S_LQ_HEAD = 10
S_LQ_COUNT = 11
"""Head and count of the SM's L1 latency queue ring (``l1access.py``)."""
N_SM_SCALARS = 12
# L1 latency queue entries: lq[sm, slot, LQ_*] (l1access.py)
LQ_ADDR = 0
LQ_SMASK = 1
LQ_NSEC = 2
LQ_KIND = 3
LQ_TOKEN = 4
LQ_READY = 5
"""Earliest core cycle of the entry's L1D lookup."""
LQ_GROUP = 6
N_LQ_FIELDS = 7
# per-slice scalars: sl_s[slice, X_*]
X_REQ_OUT_BUSY = 0
X_REP_IN_BUSY = 1
X_ROP_HEAD = 2
X_ROP_COUNT = 3
X_RQ_HEAD = 4
X_RQ_COUNT = 5
X_ROP_SEC = 6
"""Sectors of the ROP queue's head packet already looked up (sectored L2)."""
X_ROP_GROUPS = 7
"""Group read packets (``PK_GROUP``) in the ROP queue."""
N_SLICE_SCALARS = 8
# per-channel scalars: ch_s[channel, H_*]
H_DQ_COUNT = 0
H_DQ_NEXT_SEQ = 1
H_RET_HEAD = 2
H_RET_COUNT = 3
H_BUS_FREE = 4
H_RRD_OK = 5
"""Earliest ACTIVATE (tRRD after the channel's last one)."""
H_CCD_OK = 6
"""Earliest column command (tCCD after the channel's last one)."""
H_PRIO = 7
"""Bank the round robin starts from (GPGPU-Sim ``dram_t::prio``)."""
H_WTR_OK = 8
"""Earliest read column command (tWTR after the last write column command)."""
H_RTW_OK = 9
"""Earliest write column command (tRTW after the last read column command)."""
H_HELD = 10
"""Banks holding a request (``B_LEFT > 0``)."""
N_CHANNEL_SCALARS = 11
# per-bank state: bank[channel, bank, B_*] (DRAM ticks)
B_ROW = 0
"""Row of the last ACTIVATE (-1 = none yet); open when ``B_ACTIVE``."""
B_ACTIVE = 1
B_ADDR = 2
"""Address of the request the bank serves (valid while ``B_LEFT > 0``)."""
B_INFO = 3
B_LEFT = 4
"""Column commands the bank's request still needs (0 = the bank holds no request)."""
B_STREAK = 5
"""Row whose queued requests the bank keeps taking (GPGPU-Sim ``m_last_row``; -1 = none)."""
B_RCD_OK = 6
B_RCDWR_OK = 7
B_RAS_OK = 8
B_RC_OK = 9
B_RP_OK = 10
B_WTP_OK = 11
B_RTP_OK = 12
B_FRESH = 13
"""1 after an ACTIVATE until the first column command to the new row (that command's burst is
not a row hit)."""
B_G_CCDL_OK = 14
"""In row ``g < n_bank_groups``: bank group g's earliest column command (tCCDL)."""
B_G_RTPL_OK = 15
"""In row ``g < n_bank_groups``: bank group g's earliest PRECHARGE after a read (tRTPL)."""
B_QUEUED = 16
"""Scheduler-queue entries of the channel whose address is in this bank."""
B_REQ_ROW = 17
"""Row of the request the bank serves (valid while ``B_LEFT > 0``)."""
N_BANK_FIELDS = 18

__all__ += [
    "B_ACTIVE", "B_ADDR", "B_FRESH", "B_G_CCDL_OK", "B_G_RTPL_OK", "B_INFO", "B_LEFT",
    "B_QUEUED", "B_RAS_OK", "B_RCDWR_OK", "B_RCD_OK", "B_RC_OK", "B_REQ_ROW", "B_ROW",
    "B_RP_OK", "B_RTP_OK", "B_STREAK", "D_BANK", "D_ROW", "N_DQ_FIELDS",
    "B_WTP_OK", "H_CCD_OK", "H_HELD", "H_PRIO", "H_RRD_OK", "H_RTW_OK", "H_WTR_OK",
    "G_ALLOC_POLICY", "G_HIT_LATENCY", "G_SECTOR_SHIFT", "X_ROP_SEC", "X_ROP_GROUPS",
    "G_PART_CHAN_SHIFT", "G_PART_N_CHANNELS", "G_PART_SPC", "G_PART_SUB_MASK",
    "SEC_DIRTY_SHIFT", "SEC_PEND_SHIFT", "SEC_MASK",
    "G_LINE_SHIFT", "G_MQ_ENTRIES", "G_MSHR_ENTRIES", "G_MSHR_MAX_MERGE", "G_N_SETS", "G_REPL",
    "G_SET_FN", "G_WAYS", "G_WRITE_ALLOC", "G_WRITE_POLICY", "H_BUS_FREE", "H_DQ_COUNT",
    "H_DQ_NEXT_SEQ", "H_RET_COUNT", "H_RET_HEAD", "K_MQ_COUNT", "K_MQ_HEAD",
    "K_MSHR_LOW_FREE", "K_MSHR_USED",
    "K_USE_CLOCK", "N_BANK_FIELDS",
    "N_CACHE_SCALARS", "N_CHANNEL_SCALARS", "N_GEOM", "N_Q_FIELDS", "N_SLICE_SCALARS",
    "N_SM_SCALARS", "N_T_FIELDS", "Q_ADDR", "Q_INFO", "Q_READY", "RB_COUNT", "RB_HEAD",
    "S_BYP_USED", "S_EJ_COUNT", "S_EJ_HEAD", "S_FQ_COUNT", "S_FQ_HEAD", "S_PEND_ANY",
    "S_GROUP_LINES", "S_LQ_COUNT", "S_LQ_HEAD", "LQ_ADDR", "LQ_GROUP", "LQ_KIND", "LQ_NSEC",
    "LQ_READY", "LQ_SMASK", "LQ_TOKEN", "N_LQ_FIELDS",
    "S_PORT_CYCLE", "S_REP_OUT_BUSY", "S_REQ_IN_BUSY", "T_READY", "T_TOKEN", "X_REP_IN_BUSY",
    "X_REQ_OUT_BUSY", "X_ROP_COUNT", "X_ROP_HEAD", "X_RQ_COUNT", "X_RQ_HEAD",
]
