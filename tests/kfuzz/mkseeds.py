#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write the seed corpus of the kernel fuzzer (tests/kfuzz/corpus/): call
sequences in kfuzz.c's encoding that reach the deep paths at once (a CB
run on a queue, a DMA through a host mapping, HBM, NIC queues and a
region, a fork, a reopen, the second card).  The fuzzer's own finds are
not committed; these are the start.

    tests/kfuzz/mkseeds.py tests/kfuzz/corpus
"""
import os
import sys

NOPS = 14
(INFO, CB, _CB2, CS, _CS2, WAIT, MEM, USERPTR, NIC, DEBUG, EXT, REOPEN,
 FORK) = range(13)


def op(kind, card=0, variant=0):
    """The op byte: op % 14 is the kind, bit 7 the card; for REOPEN and
    FORK the bits 6:4 pick reopen or fork (0) or remap or a CS."""
    for b in range(128 * card, 128 * card + 128):
        if b % NOPS == kind and (b >> 4) % 8 == variant % 8:
            return bytes([b])
    for b in range(128 * card, 128 * card + 128):
        if b % NOPS == kind:
            return bytes([b])
    raise ValueError(kind)


def u8(*v):
    return bytes(x & 0xFF for x in v)


def u16(v):
    return v.to_bytes(2, "little")


def u32(v):
    return v.to_bytes(4, "little")


def u64(v):
    return v.to_bytes(8, "little")


def cb_create(card=0, slot=0, size_idx=1, mapped=False):
    # k % 4 == 0 create, (k >> 2) % 8 the size, bit 5 HL_CB_FLAGS_MAP
    return op(CB, card) + u8((size_idx << 2) | (0x20 if mapped else 0), slot)


def cb_mmap(card=0, slot=0):
    return op(CB, card) + u8(3, slot)


def userptr(card=0, slot=0, buf=0, page=0, pages=1):
    return op(USERPTR, card) + u8(0, slot, buf, page, pages - 1)


def unmap(card=0, slot=0):
    return op(USERPTR, card) + u8(1, slot)


def wait(card=0):
    return op(WAIT, card) + u8(2, 0)


def va(hm=0, off=0):
    """pick_va(): kind 0 (a host map, slot @hm) at offset @off."""
    return u8(hm << 3) + u16(off)


def cs_lin_dma(card=0, cb=0, q=1, hm_src=0, hm_dst=1):
    # no flags, 1 chunk (CB slot, queue index: odd = by handle), 1 packet:
    # LIN_DMA of 4 KiB from host map @hm_src to host map @hm_dst
    pkt = u8(0, 0) + va(hm_src) + va(hm_dst) + u16(4096)
    return op(CS, card) + u8(7, 0, cb, q) + pkt + u8(0)


def cs_msg(card=0, cb=0, q=1, hm=0):
    pkt = u8(0, 2) + va(hm, 64) + u32(0x12345678)
    return op(CS, card) + u8(7, 0, cb, q) + pkt + u8(0)


def cs_signal(card=0, cb=0):
    return op(CS, card) + u8(0, 0, cb, 3) + u8(0, 6) + u8(0)


def cs_wait(card=0, cb=0):
    return op(CS, card) + u8(1, 0, cb, 3) + u8(0, 6) + u8(0) + u8(0)


def mem_alloc(card=0, slot=0, mib2=1):
    return op(MEM, card) + u8(0, slot, mib2)


def mem_map(card=0, slot=0):
    return op(MEM, card) + u8(2, slot)


def nic(k, args=b"", card=0, slot=0, port=0):
    """NIC op index @k of kfuzz.c's table, connection slot @slot."""
    return op(NIC, card) + u8(k, slot, port) + u16(0) + args + u8(0)


SEEDS = {
    "info": b"".join(op(INFO) + u8(0, i) for i in range(0, 40, 3)),
    "ext": op(EXT) + u8(0, 0) + op(EXT) + u8(1, 0) + op(EXT) + u8(2, 0) +
    op(EXT) + u8(3, 0, 4) + op(INFO, 0) + u8(8, 1),
    "cb": cb_create() + cb_mmap() + cb_create(slot=1, mapped=True) +
    op(CB) + u8(2, 1, 0, 2) + op(CB) + u8(1, 1),
    "dma": cb_create() + cb_mmap() + userptr(slot=0, buf=0) +
    userptr(slot=1, buf=1) + cs_lin_dma() + wait() + unmap(slot=1) +
    cs_msg(hm=0) + wait(),
    "signal": cb_create() + cb_mmap() + cs_signal() + cs_wait() + wait() +
    op(WAIT) + u8(4, 0, 1, 2, 3, 4),
    "hbm": mem_alloc() + mem_map() + op(MEM) + u8(4, 0, 1, 1) +
    cb_create() + cb_mmap() + userptr() + cs_lin_dma(hm_dst=0) + wait(),
    "nic": userptr(slot=0, buf=2, pages=16) +
    nic(0) +                                            # ALLOC_CONN
    nic(4, va(0) + u8(3, 0)) +                          # WQ_SET
    nic(6, va(0, 0x8000) + u8(0)) +                     # CQ_SET
    nic(1, bytes(13)) +                                 # REQ_CTX
    nic(2, bytes(11)) +                                 # RES_CTX
    nic(14, va(0, 0x4000) + u16(0xFFF) + u8(1)) +       # REG_MR
    nic(10, u8(1)) +                                    # DOORBELL
    nic(13) + nic(8, u8(0)) + nic(15) + nic(3),
    "two": cb_create(0) + cb_mmap(0) + cb_create(1) + cb_mmap(1) +
    userptr(0, buf=0) + userptr(1, buf=0) + cs_msg(0) + cs_msg(1) +
    wait(0) + wait(1) + unmap(0) + cs_msg(1) + wait(1),
    "life": cb_create() + userptr() + op(FORK) + u8(0x7) + op(REOPEN, 0, 0) +
    cb_create() + userptr(slot=2, buf=3) + op(REOPEN, 0, 1) + u8(3) +
    cb_create() + cb_mmap() + cs_msg(hm=2) + wait(),
    # A CS held by a FENCE nobody signals: the clean-up after the input
    # closes the card under it, a hard reset (the reset work's remote
    # kcov).  A LIN_DMA from and to device addresses nobody mapped: an MMU
    # page fault, an event for the event-queue thread.
    "hang": cb_create() + cb_mmap() + op(CS) + u8(7, 0, 0, 1) +
    u8(0, 4, 0, 1, 1) + u8(0),
    "fault": cb_create() + cb_mmap() + op(CS) + u8(7, 0, 0, 1) + u8(0, 0) +
    u8(3) + u16(0) + u64(0x1000) + u8(3) + u16(0) + u64(0x2000) +
    u16(4096) + u8(0) + wait(),
    "debug": b"".join(op(DEBUG) + bytes(64) + u8(i, 0, 1, 16, 16)
                      for i in range(0, 8, 2)),
}


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
