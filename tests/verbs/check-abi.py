#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The provider's declaration of libibverbs' private provider ABI
(userspace/verbs/verbs-provider.h) against Debian's own binaries.

rdma-core's <infiniband/driver.h> is not installed by any Debian package,
so the provider declares the layouts itself (Documentation/net/rdma.rst,
"The provider").  This test reads the facts back from what Debian ships:

  * every op of struct verbs_context_ops: the ops tables of the providers
    in libibverbs-dev's static archives (lib*-rdmav34.a, libmlx5.a, ...)
    are initialised data whose relocations name a function per slot; at
    the offset where the header puts op NAME, some provider must have a
    function called *NAME (rxe_alloc_pd at alloc_pd's offset);
  * the size of the ops table (76 slots) and of struct verbs_device_ops,
    and the slots of verbs_device_ops the provider fills (Soft-RoCE's
    table, verbs_provider_rxe);
  * the private ABI version: libibverbs.so.1 exports
    verbs_register_driver_<PABI> with version IBVERBS_PRIVATE_<PABI>, and
    the other private calls the provider makes (the uverbs data-path
    commands ibv_cmd_post_send, ...) with the same version;
  * what libibverbs itself reads behind the public structs the provider
    allocates: ibv_dereg_mr() reads struct verbs_mr's mr_type and access,
    ibv_qp_to_qp_ex() tests VERBS_QP_EX in struct verbs_qp's comp_mask;
    their disassembly must use the header's offsets and bit;
  * the driver ABI of uapi/rdma/gaudi_ib_abi.h between the provider and
    gaudi_ib.ko: what an older provider or kernel reads stays where it was
    (CREATE_QP's response: qpn, max_send_wr, max_recv_wr at 0, 4, 8, the
    rings' comp_mask where the reserved word was, 0 from an older kernel),
    the staging rings' slots and indexes have their sizes, and the slots
    carry libibverbs' opcode and flag values as the uverbs commands do
    (the kernel reads them as IB_UVERBS_WR_* and IB_UVERBS_SEND_*).

A compiled probe prints the header's offsets.  TAP, "N passed, N failed".
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
HDR = os.path.join(TOP, "userspace", "verbs", "verbs-provider.h")
LIBDIR = "/usr/lib/x86_64-linux-gnu"

n = failed = 0


def ok(cond, what):
    global n, failed
    n += 1
    if not cond:
        failed += 1
    print("%sok %d - %s" % ("" if cond else "not ", n, what))
    return cond


def done():
    print("1..%d" % n)
    print("%d passed, %d failed" % (n - failed, failed))
    sys.exit(1 if failed else 0)


def header_members(struct):
    """Member names of STRUCT in the header, in order."""
    text = open(HDR).read()
    body = re.search(r"struct %s \{(.*?)\n\};" % struct, text, re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    names = []
    for decl in body.split(";"):
        decl = " ".join(decl.split())
        if not decl:
            continue
        m = re.match(r"verbs_op_t (.*)", decl)
        if m:
            names += [x.strip() for x in m.group(1).split(",")]
            continue
        m = re.search(r"\(\*(\w+)\)", decl) or re.search(r"(\w+)$", decl)
        names.append(m.group(1))
    return names


def probe(struct, names):
    """offsetof each member and sizeof STRUCT, from a compiled probe."""
    src = "#include \"%s\"\n#include <stdio.h>\nint main(void){\n" % HDR
    for m in names:
        src += 'printf("%%s %%zu\\n", "%s", offsetof(struct %s, %s));\n' % (
            m, struct, m)
    src += 'printf("sizeof %%zu\\n", sizeof(struct %s));\nreturn 0;}\n' % (
        struct)
    with tempfile.TemporaryDirectory() as d:
        c, exe = os.path.join(d, "p.c"), os.path.join(d, "p")
        open(c, "w").write(src)
        subprocess.run(["cc", "-std=gnu11", "-o", exe, c], check=True)
        out = subprocess.run([exe], capture_output=True, text=True,
                             check=True).stdout
    return dict((k, int(v)) for k, v in
                (line.split() for line in out.splitlines()))


def archive_tables():
    """{(archive, table): (size, {offset: function name})} of the ops
    tables (>= 0x40 bytes of initialised pointers) in the providers'
    static archives."""
    libs = [l for l in subprocess.run(["dpkg", "-L", "libibverbs-dev"],
                                      capture_output=True, text=True)
            .stdout.split() if l.endswith(".a") and "libibverbs.a" not in l]
    tables = {}
    with tempfile.TemporaryDirectory() as tmp:
        for a in libs:
            d = os.path.join(tmp, os.path.basename(a))
            os.makedirs(d)
            subprocess.run(["ar", "x", a], cwd=d, check=True)
            for o in glob.glob(d + "/*.o"):
                syms, objs = {}, []
                for l in subprocess.run(["objdump", "-t", o],
                                        capture_output=True,
                                        text=True).stdout.splitlines():
                    m = re.match(r"([0-9a-f]{16}) (.{7}) (\S+)\s+"
                                 r"([0-9a-f]{16})\s+(?:\.hidden\s+)?(\S+)$", l)
                    if not m:
                        continue
                    addr, sec = int(m.group(1), 16), m.group(3)
                    size, name = int(m.group(4), 16), m.group(5)
                    if sec.startswith(".text"):
                        syms[(sec, addr)] = name
                    if sec.startswith(".data.rel.ro") and "O" in m.group(2):
                        objs.append((sec, addr, size, name))
                for sec, addr, size, name in objs:
                    out = subprocess.run(["objdump", "-r", "-j", sec, o],
                                         capture_output=True,
                                         text=True).stdout
                    slots = {}
                    for l in out.splitlines():
                        m = re.match(r"([0-9a-f]+)\s+R_X86_64_64\s+(\S+)", l)
                        if not m:
                            continue
                        off = int(m.group(1), 16)
                        if not addr <= off < addr + size:
                            continue
                        t = m.group(2)
                        mm = re.match(r"(\.text[^+]*)\+0x([0-9a-f]+)", t)
                        if mm:
                            t = syms.get((mm.group(1), int(mm.group(2), 16)),
                                         t)
                        slots[off - addr] = re.sub(r"^rdmacore\d+_\d+_", "",
                                                   t)
                    tables[(os.path.basename(a), name)] = (size, slots)
    return tables


ops = header_members("verbs_context_ops")
off = probe("verbs_context_ops", ops)
tables = archive_tables()
# A context ops table: one that gives a context's free_context.
ctx_tables = [t for (a, name), t in tables.items()
              if any(fn.endswith("_free_context") for fn in t[1].values())]
ok(len(ctx_tables) >= 10, "Debian's providers' ops tables found (%d)"
   % len(ctx_tables))
sizes = set(size for size, _ in ctx_tables)
ok(sizes == {off["sizeof"]}, "struct verbs_context_ops is %d bytes, as "
   "every Debian provider's table (%s)" % (off["sizeof"],
                                           ", ".join(map(hex, sizes))))
at = {}
for size, slots in ctx_tables:
    for o, fn in slots.items():
        at.setdefault(o, set()).add(fn)
bad = [m for m in ops if not any(fn.endswith(m) for fn in at.get(off[m], ()))]
ok(not bad, "each of the %d ops sits where Debian's providers put a *_<op> "
   "function%s" % (len(ops), (": " + " ".join(
       "%s@%d(%s)" % (m, off[m] // 8, ",".join(sorted(at.get(off[m], ()))[:3]))
       for m in bad)) if bad else ""))
ok(len(ops) == off["sizeof"] // 8, "no slot left out (%d members)" % len(ops))

dev = header_members("verbs_device_ops")
doff = probe("verbs_device_ops", dev)
rxe = [t for (a, name), t in tables.items() if name == "verbs_provider_rxe"]
if ok(len(rxe) == 1, "Soft-RoCE's verbs_provider_rxe found"):
    size, slots = rxe[0]
    ok(size == doff["sizeof"], "struct verbs_device_ops is %d bytes, as "
       "verbs_provider_rxe (%d)" % (doff["sizeof"], size))
    want = {"alloc_context": "rxe_alloc_context",
            "alloc_device": "rxe_device_alloc",
            "uninit_device": "rxe_uninit_device"}
    ok(all(slots.get(doff[m]) == fn for m, fn in want.items()),
       "alloc_context, alloc_device and uninit_device where rxe has them "
       "(%s)" % ", ".join("%s@%d=%s" % (m, doff[m], slots.get(doff[m]))
                          for m in want))

pabi = re.search(r"#define GAUDI_VERBS_PABI\s+(\d+)", open(HDR).read())
syms = subprocess.run(["objdump", "-T", LIBDIR + "/libibverbs.so.1"],
                      capture_output=True, text=True).stdout
ok(pabi and re.search(r"IBVERBS_PRIVATE_%s\s+verbs_register_driver_%s\b"
                      % (pabi.group(1), pabi.group(1)), syms),
   "libibverbs.so.1 exports verbs_register_driver_%s (IBVERBS_PRIVATE_%s)"
   % (pabi.group(1) if pabi else "?", pabi.group(1) if pabi else "?"))
for fn in ("_verbs_init_and_alloc_context", "verbs_uninit_context",
           "verbs_set_ops", "ibv_cmd_post_send", "ibv_cmd_post_recv",
           "ibv_cmd_poll_cq", "ibv_cmd_req_notify_cq"):
    ok(re.search(r"IBVERBS_PRIVATE_%s\s+%s\b" % (pabi.group(1), fn), syms),
       "and %s" % fn)


def disasm(sym):
    """The instructions of libibverbs' function SYM (name@@version)."""
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn",
                          LIBDIR + "/libibverbs.so.1"],
                         capture_output=True, text=True).stdout
    m = re.search(r"<%s>:\n(.*?)\n\n" % re.escape(sym), out, re.S)
    return m.group(1) if m else ""


moff = probe("verbs_mr", ["mr_type", "access"])
code = disasm("ibv_dereg_mr@@IBVERBS_1.1")
ok(all(re.search(r"mov\s+0x%x\(%%rdi\)" % moff[m], code)
       for m in ("mr_type", "access")),
   "ibv_dereg_mr reads struct verbs_mr's mr_type at 0x%x and access at "
   "0x%x" % (moff["mr_type"], moff["access"]))
qoff = probe("verbs_qp", ["comp_mask"])
bit = re.search(r"VERBS_QP_EX = 1 << (\d+)", open(HDR).read())
code = disasm("ibv_qp_to_qp_ex@@IBVERBS_1.6")
ok(bit and re.search(r"test[bl]\s+\$0x%x,0x%x\(%%rdi\)"
                     % (1 << int(bit.group(1)), qoff["comp_mask"]), code),
   "ibv_qp_to_qp_ex tests VERBS_QP_EX (bit %s) of struct verbs_qp's "
   "comp_mask at 0x%x" % (bit.group(1) if bit else "?", qoff["comp_mask"]))
ABI = os.path.join(TOP, "uapi", "rdma", "gaudi_ib_abi.h")


def probe_abi(exprs):
    """The value of each C expression (a size_t) with the driver ABI."""
    src = ("#include <stddef.h>\n#include <stdio.h>\n"
           "#include <infiniband/verbs.h>\n#include <rdma/ib_user_verbs.h>\n"
           "#include \"%s\"\nint main(void){\n" % ABI)
    for i, e in enumerate(exprs):
        src += 'printf("%d %%zu\\n", (size_t)(%s));\n' % (i, e)
    src += "return 0;}\n"
    with tempfile.TemporaryDirectory() as d:
        c, exe = os.path.join(d, "p.c"), os.path.join(d, "p")
        open(c, "w").write(src)
        subprocess.run(["cc", "-std=gnu11", "-Wall", "-Werror", "-o", exe, c],
                       check=True)
        out = subprocess.run([exe], capture_output=True, text=True,
                             check=True).stdout
    return [int(line.split()[1]) for line in out.splitlines()]


def off(struct, member):
    return "offsetof(struct %s, %s)" % (struct, member)


qr = "gaudi_ib_create_qp_resp"
v = probe_abi([off(qr, "qpn"), off(qr, "max_send_wr"), off(qr, "max_recv_wr"),
               off(qr, "comp_mask"), off(qr, "sq_ring_offset"),
               "sizeof(struct %s)" % qr])
ok(v[:5] == [0, 4, 8, 12, 16] and v[5] % 8 == 0,
   "CREATE_QP's driver response: qpn, max_send_wr, max_recv_wr, comp_mask "
   "(the old reserved word) at 0/4/8/12, the rings after 16 (%s)" % v)
v = probe_abi(["sizeof(struct gaudi_ib_ring_swqe)",
               "sizeof(struct gaudi_ib_ring_rwqe)",
               "sizeof(struct gaudi_ib_ring_ctl)",
               off("gaudi_ib_ring_ctl", "pi"), off("gaudi_ib_ring_ctl", "ci"),
               "sizeof(struct gaudi_ib_create_qp_req)"])
ok(v == [64, 32, 64, 0, 4, 8],
   "staging ring slots of 64 (send) and 32 (receive) bytes, indexes pi/ci "
   "at 0/4 of 64 bytes; CREATE_QP's request 8 bytes (%s)" % v)
pairs = [("IBV_WR_RDMA_WRITE", "IB_UVERBS_WR_RDMA_WRITE"),
         ("IBV_WR_RDMA_WRITE_WITH_IMM", "IB_UVERBS_WR_RDMA_WRITE_WITH_IMM"),
         ("IBV_WR_SEND", "IB_UVERBS_WR_SEND"),
         ("IBV_WR_SEND_WITH_IMM", "IB_UVERBS_WR_SEND_WITH_IMM"),
         ("IBV_WR_RDMA_READ", "IB_UVERBS_WR_RDMA_READ"),
         # No uapi header names the send flags: the uverbs command passes
         # them as the kernel's enum ib_send_flags (Linux 6.12's
         # include/rdma/ib_verbs.h: FENCE 1, SIGNALED 2, SOLICITED 4,
         # INLINE 8), which gaudi_ib.ko compares.
         ("IBV_SEND_FENCE", "1"), ("IBV_SEND_SIGNALED", "2"),
         ("IBV_SEND_SOLICITED", "4"), ("IBV_SEND_INLINE", "8")]
v = probe_abi([x for p in pairs for x in p])
ok(all(v[2 * i] == v[2 * i + 1] for i in range(len(pairs))),
   "the slots' opcodes and flags: libibverbs' values are the uverbs "
   "commands' (%s)" % ", ".join(a for a, _ in pairs))
v = probe_abi(["GAUDI_IB_UCTX_KERNEL_DATAPATH", "GAUDI_IB_UCTX_STAGING_RINGS",
               "GAUDI_IB_QP_SQ_RING", "GAUDI_IB_QP_RQ_RING",
               "GAUDI_IB_UVERBS_ABI_VERSION"])
ok(v == [1, 2, 1, 2, 1],
   "context bits KERNEL_DATAPATH 1, STAGING_RINGS 2; QP bits SQ_RING 1, "
   "RQ_RING 2; uverbs ABI 1 (additions only) (%s)" % v)
done()
