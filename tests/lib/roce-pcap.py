#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""roce-pcap: check the invariant CRC of every RoCE v2 frame of a capture.

    tests/lib/roce-pcap.py FILE.pcap

tshark decodes RoCE v2 (UDP port 4791) but shows the iCRC without checking
it, so this recomputes it for every IPv4 frame to UDP port 4791, as the
InfiniBand specification's annex 17 defines it for RoCE v2: CRC-32 over
eight bytes of ones (the masked LRH), the IPv4 header with its TOS, TTL
and checksum set to ones, the UDP header with its checksum set to ones,
the BTH with its reserved byte 4 set to ones, and the rest of the packet
up to the iCRC; the four iCRC bytes follow, least significant first.  The
end of the packet is the IPv4 total length (Ethernet padding is not part
of it).

Prints one line "roce-pcap: N frames, N RoCE v2, N bad iCRC, N malformed"
and one line per bad frame (its number as tshark counts, from 1).  Exit
status 0 when every RoCE v2 frame is whole and its iCRC right, 1 when not,
2 when the file cannot be read as a pcap of Ethernet frames.
"""

import struct
import sys
import zlib

ROCE_PORT = 4791
ETH_HDR = 14
IP_HDR = 20
UDP_HDR = 8
BTH = 12
ICRC = 4


def frames(path):
    """The captured bytes of each frame of a classic pcap file."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        raise ValueError("too short for a pcap header")
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        end = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        end = ">"
    else:
        raise ValueError("not a pcap file (magic %s)" % magic.hex())
    (linktype,) = struct.unpack(end + "I", data[20:24])
    if linktype != 1:
        raise ValueError("link type %d, not Ethernet" % linktype)
    off = 24
    while off + 16 <= len(data):
        incl, orig = struct.unpack(end + "II", data[off + 8:off + 16])
        off += 16
        if off + incl > len(data):
            raise ValueError("frame cut short at the end of the file")
        yield data[off:off + incl], orig
        off += incl


def icrc(pkt):
    """The iCRC of an IPv4 RoCE v2 packet (from the IPv4 header to the
    byte before the iCRC)."""
    ip = bytearray(pkt[:IP_HDR])
    ip[1] = 0xFF
    ip[8] = 0xFF
    ip[10:12] = b"\xff\xff"
    udp = bytearray(pkt[IP_HDR:IP_HDR + UDP_HDR])
    udp[6:8] = b"\xff\xff"
    bth = bytearray(pkt[IP_HDR + UDP_HDR:IP_HDR + UDP_HDR + BTH])
    bth[4] = 0xFF
    rest = pkt[IP_HDR + UDP_HDR + BTH:-ICRC]
    return zlib.crc32(b"\xff" * 8 + bytes(ip) + bytes(udp) + bytes(bth) +
                      rest) & 0xFFFFFFFF


def check(path):
    total = roce = bad = malformed = 0
    notes = []
    for n, (f, orig) in enumerate(frames(path), 1):
        total += 1
        if len(f) < ETH_HDR + IP_HDR + UDP_HDR or f[12:14] != b"\x08\x00":
            continue
        ip = f[ETH_HDR:]
        if ip[0] >> 4 != 4 or ip[9] != 17:
            continue
        ihl = (ip[0] & 0xF) * 4
        if len(ip) < ihl + UDP_HDR:
            continue
        (dport,) = struct.unpack(">H", ip[ihl + 2:ihl + 4])
        if dport != ROCE_PORT:
            continue
        roce += 1
        (tot,) = struct.unpack(">H", ip[2:4])
        (ulen,) = struct.unpack(">H", ip[ihl + 4:ihl + 6])
        if len(f) < orig:
            malformed += 1
            notes.append("frame %d: captured %d of %d bytes"
                         % (n, len(f), orig))
        elif ihl != IP_HDR or tot > len(ip) or \
                tot < IP_HDR + UDP_HDR + BTH + ICRC or \
                ulen != tot - IP_HDR:
            malformed += 1
            notes.append("frame %d: IPv4 header %d bytes, total length %d,"
                         " UDP length %d, %d bytes captured"
                         % (n, ihl, tot, ulen, len(ip)))
        else:
            pkt = ip[:tot]
            (wire,) = struct.unpack("<I", pkt[-ICRC:])
            want = icrc(pkt)
            if wire != want:
                bad += 1
                notes.append("frame %d: iCRC 0x%08x, want 0x%08x"
                             % (n, wire, want))
    return total, roce, bad, malformed, notes


def main():
    if len(sys.argv) != 2:
        print("usage: roce-pcap.py FILE.pcap", file=sys.stderr)
        return 2
    try:
        total, roce, bad, malformed, notes = check(sys.argv[1])
    except (OSError, ValueError) as e:
        print("roce-pcap: %s: %s" % (sys.argv[1], e), file=sys.stderr)
        return 2
    print("roce-pcap: %d frames, %d RoCE v2, %d bad iCRC, %d malformed"
          % (total, roce, bad, malformed))
    for line in notes[:20]:
        print("roce-pcap: " + line)
    if len(notes) > 20:
        print("roce-pcap: ... %d more" % (len(notes) - 20))
    return 1 if bad or malformed else 0


if __name__ == "__main__":
    sys.exit(main())
